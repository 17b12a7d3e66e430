import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/**
 * The hostile-input table's two axes, shared by the test and the child that runs its cells: kinds of
 * bad input, and every file slot of every command that reads a file. A cell is one slot over one kind.
 */

const GOOD_SPEC = resolve('examples/stepmap-repo/trace/read-before-answer.trace.yaml')
const GOOD_MAP = resolve('examples/stepmap-repo/step-map.yaml')
const GOOD_WORKFLOW = resolve('examples/stepmap-repo/workflow.yaml')
const GOOD_TRANSCRIPT = resolve('test/fixtures/wild/dsh/cancel-tool-calls--session.jsonl')

export interface HostileInput {
  readonly path: string
  /** The other end of a FIFO, started before the command and killed after it. */
  readonly writer?: () => ChildProcess
  readonly env?: Record<string, string>
}

const deepJson = `${'['.repeat(8000)}1${']'.repeat(8000)}`
// Nine levels of nine aliases each: 9^9 nodes once expanded, 521 bytes as written.
const aliasBomb = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ...'bcdefghi'.split('').map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(',')}]`),
].join('\n')
const manyKeys = Array.from({ length: 100_000 }, (_, index) => `k${index}: ${index}`).join('\n')

/** Makes each kind of input under `root` (a fresh folder per cell run). */
export function hostileKinds(root: string): Record<string, () => HostileInput> {
  let count = 0
  const file = (name: string, content: string | Buffer): string => {
    const path = join(root, `${count++}-${name}`)
    writeFileSync(path, content)
    return path
  }
  const fifo = (command: string): HostileInput => {
    const path = join(root, `fifo-${count++}`)
    execFileSync('mkfifo', [path])
    return { path, writer: () => spawn('sh', ['-c', `exec ${command} > "${path}"`], { stdio: 'ignore' }) }
  }
  return {
    missing: () => ({ path: join(root, 'no-such-file.yaml') }),
    directory: () => ({ path: mkdtempSync(join(root, 'dir-')) }),
    empty: () => ({ path: file('empty.yaml', '') }),
    binary: () => ({ path: file('binary.yaml', Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x0a, 0xc3, 0x28, 0x0a])) }),
    device: () => ({ path: '/dev/zero' }),
    endless: () => fifo('cat /dev/zero'),
    'deep-nested': () => ({ path: file('deep.yaml', `${deepJson}\n`) }),
    'alias-bomb': () => ({ path: file('bomb.yaml', `${aliasBomb}\n`) }),
    '100k-key': () => ({ path: file('keys.yaml', `${manyKeys}\n`) }),
    'over-limit': () => ({ path: file('large.yaml', 'x'.repeat(9 * 1024 * 1024)), env: { VITEST_HARNESS_MAX_INPUT_MB: '1' } }),
    pipe: () => fifo(`printf '{"a": 1}\\n'`),
  }
}

export const HOSTILE_KINDS: readonly string[] = Object.keys(hostileKinds('/nonexistent'))

/** A command line with one file slot filled by the hostile input; every other slot gets a good file. */
export function hostileSlots(root: string): Record<string, (path: string) => string[]> {
  let count = 0
  const vectorsAround = (path: string): string => {
    const dir = mkdtempSync(join(root, `vectors-${count++}-`))
    mkdirSync(join(dir, 'v'))
    symlinkSync(path, vectorManifestIn(dir))
    return dir
  }
  return {
    'check --spec': (path) => ['check', '--spec', path, '--transcript', GOOD_TRANSCRIPT],
    'check --transcript': (path) => ['check', '--spec', GOOD_SPEC, '--transcript', path],
    'inspect --transcript': (path) => ['inspect', '--transcript', path],
    'replay FILE': (path) => ['replay', '--adapter', 'b10x', path],
    'convert IN': (path) => ['convert', '--from', 'dsh-session-jsonl', path],
    'convert IN (detected)': (path) => ['convert', path],
    'serve --scenario': (path) => ['serve', '--scenario', path],
    'serve --cassette': (path) => ['serve', '--cassette', path],
    'contract --vectors': (path) => ['contract', 'b10x', '--vectors', vectorsAround(path)],
    'evidence --spec': (path) => ['evidence', '--spec', path, '--transcript', GOOD_TRANSCRIPT],
    'evidence --transcript': (path) => ['evidence', '--spec', GOOD_SPEC, '--transcript', path],
    'evidence validate': (path) => ['evidence', 'validate', path],
    'stepmap validate --map': (path) => ['stepmap', 'validate', '--map', path, '--workflow', GOOD_WORKFLOW],
    'stepmap validate --workflow': (path) => ['stepmap', 'validate', '--map', GOOD_MAP, '--workflow', path],
    'stepmap flow --workflow': (path) => ['stepmap', 'flow', '--workflow', path],
    'report --transcript': (path) => ['report', '--transcript', path, '--out', join(root, `report-${count++}.html`)],
    'report --trace-report': (path) => ['report', '--trace-report', path, '--out', join(root, `report-${count++}.html`)],
    'report --requests': (path) => ['report', '--requests', path, '--out', join(root, `report-${count++}.html`)],
    'diff A': (path) => ['diff', path, GOOD_TRANSCRIPT],
    // The scenario is read before any harness binary is looked for or run.
    'vector new --scenario': (path) => ['vector', 'new', 'codex', '--out', join(root, `vectors-new-${count++}`), '--scenario', path, '--prompt', 'p'],
  }
}

/** Where `contract --vectors DIR` finds the hostile input: the one vector's manifest. */
export function vectorManifestIn(dir: string): string {
  return join(dir, 'v', 'vector.yaml')
}

export const HOSTILE_SLOTS: readonly string[] = Object.keys(hostileSlots('/nonexistent'))

/** What the child reports for one cell. */
export interface CellResult {
  readonly slot: string
  readonly kind: string
  readonly argv: readonly string[]
  /** The hostile file as the command was given it (for `contract`, the manifest inside its folder). */
  readonly location: string
  /** The exit code, or null when the command had not finished within the cell's time. */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** Wall-clock time of the cell. */
  readonly ms: number
  /** CPU time (user + system) the cell took: its work, whatever else the machine is running. */
  readonly cpuMs: number
  /** The child's peak resident set during this cell, in MB. */
  readonly maxRssMb: number
  /**
   * The child's resident set when the cell started, after a collection, in MB: tsx, every module and
   * what earlier cells left, none of it the cell's.
   */
  readonly restMb: number
}
