import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, type CliRun } from '../helpers/cli.js'
import { COMMANDS } from '../../src/cli/commands.js'

/**
 * Every command that reads a file, over every kind of hostile or huge input in each file slot it
 * has: a refusal exits 2 with a code and the file it is about, and nothing prints a stack frame or
 * an engine's own message. Runs in-process, so the whole table takes seconds.
 */

const root = mkdtempSync(join(tmpdir(), 'vh-hostile-'))
const GOOD_SPEC = resolve('examples/stepmap-repo/trace/read-before-answer.trace.yaml')
const GOOD_MAP = resolve('examples/stepmap-repo/step-map.yaml')
const GOOD_WORKFLOW = resolve('examples/stepmap-repo/workflow.yaml')
const GOOD_TRANSCRIPT = resolve('test/fixtures/wild/dsh/cancel-tool-calls--session.jsonl')

function file(name: string, content: string | Buffer): string {
  const path = join(root, name)
  writeFileSync(path, content)
  return path
}

const deepJson = `${'['.repeat(8000)}1${']'.repeat(8000)}`
const aliasBomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(',')}]`)].join('\n')
const manyKeys = Array.from({ length: 100_000 }, (_, index) => `k${index}: ${index}`).join('\n')

interface Input {
  readonly path: string
  /** A writer the case starts (a FIFO's other end) and stops. */
  readonly writer?: () => ChildProcess
  readonly env?: Record<string, string>
}

let fifoCount = 0
function fifo(command: string): Input {
  const path = join(root, `fifo-${fifoCount++}`)
  execFileSync('mkfifo', [path])
  return { path, writer: () => spawn('sh', ['-c', `${command} > "${path}"`], { stdio: 'ignore' }) }
}

const KINDS: Record<string, () => Input> = {
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

/** A command line with one file slot; `contract` reads its slot as a vector folder's manifest. */
const SLOTS: Record<string, (path: string) => string[]> = {
  'check --spec': (path) => ['check', '--spec', path, '--transcript', GOOD_TRANSCRIPT],
  'check --transcript': (path) => ['check', '--spec', GOOD_SPEC, '--transcript', path],
  'inspect --transcript': (path) => ['inspect', '--transcript', path],
  'replay FILE': (path) => ['replay', '--adapter', 'b10x', path],
  'convert IN': (path) => ['convert', '--from', 'dsh-session-jsonl', path],
  'serve --scenario': (path) => ['serve', '--scenario', path],
  'contract --vectors': (path) => {
    const dir = mkdtempSync(join(root, 'vectors-'))
    mkdirSync(join(dir, 'v'))
    symlinkSync(path, join(dir, 'v', 'vector.yaml'))
    return ['contract', 'b10x', '--vectors', dir]
  },
  'evidence --spec': (path) => ['evidence', '--spec', path, '--transcript', GOOD_TRANSCRIPT],
  'evidence validate': (path) => ['evidence', 'validate', path],
  'stepmap validate --map': (path) => ['stepmap', 'validate', '--map', path, '--workflow', GOOD_WORKFLOW],
  'stepmap validate --workflow': (path) => ['stepmap', 'validate', '--map', GOOD_MAP, '--workflow', path],
  'stepmap flow --workflow': (path) => ['stepmap', 'flow', '--workflow', path],
}

// What an engine says when nobody caught it: none may reach the user.
const RAW = /Maximum call stack|ESPIPE|EISDIR|ENOENT|EADDRINUSE|ERR_STRING_TOO_LONG|TypeError|RangeError|Cannot read propert|Unexpected token|is not a function|undefined/
const CODE = /VH_[A-Z0-9_]+|TRACE-[A-Z]+-\d{3}|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\bSM\d{3}\b/

const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

async function runCase(argv: string[], input: Input): Promise<CliRun> {
  const writer = input.writer?.()
  if (writer) children.push(writer)
  try {
    return await runCli(argv, { env: input.env ?? {} })
  } finally {
    writer?.kill('SIGKILL')
  }
}

describe('every command over hostile and huge input', () => {
  it('covers every command that reads a file', () => {
    const covered = new Set(Object.values(SLOTS).map((slot) => slot('/dev/null')[0]))
    const readers = COMMANDS.map((command) => command.name).filter((name) => name !== 'capabilities' && name !== 'doctor')
    expect([...covered].sort()).toEqual(readers.sort())
  })

  for (const [slot, argvFor] of Object.entries(SLOTS)) {
    for (const [kind, make] of Object.entries(KINDS)) {
      it(`${slot} over ${kind}`, { timeout: 30_000 }, async () => {
        const input = make()
        const run = await runCase(argvFor(input.path), input)
        const output = `${run.stdout}\n${run.stderr}`
        expect(output).not.toContain('    at ')
        expect(run.stderr).not.toMatch(RAW)
        if (run.code === 0) return
        // A verdict (1, 3) or a refusal (2); either way it says what and where.
        expect([1, 2, 3]).toContain(run.code)
        if (run.code === 2) {
          expect(run.stderr).toMatch(CODE)
          expect(run.stderr).toMatch(/error: /)
        }
      })
    }
  }
})
