import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/cli/commands.js'
import { UPSTREAM_TRACE_REFUSAL } from '../../src/cli/trace-input.js'
import { EXIT } from '../../src/util/exit-codes.js'
import { HOSTILE_KINDS, HOSTILE_SLOTS, type CellResult } from '../helpers/hostile-inputs.js'

/**
 * Every command that reads a file, over every kind of hostile or huge input in each file slot it has
 * (issue 17): each cell is refused with the exit it documents, a code, the file it is about, no stack
 * frame and no engine's own message, within 10 s and 300 MB. The cells run in child processes (so
 * their memory can be measured and what never ends killed), many cells per child, two at a time.
 * A cell's memory is what it grows the child by over the child's resting set (tsx, every module, what
 * earlier cells left): held to what a fresh `vitest-harness` process may add to its own start.
 * The 10 s are CPU time: on a shared two-core machine wall time measures the neighbours, not the
 * work (a cell that never ends is still stopped, at 30 s of wall time).
 */

const CELL_MS = 10_000
const WALL_MS = 30_000
const MAX_RSS_MB = 300
// What a fresh `vitest-harness` process holds before it reads anything (`/usr/bin/time -f %M`
// of `bin/vitest-harness.js --version`: 82 MB on Node 20). The child's own rest is about 150 MB,
// and the absolute peak after earlier cells measured their heap too (334 MB once, on a cell a
// fresh process runs in 83 MB).
const FRESH_PROCESS_MB = 85
const LANES = 2

// What an engine says when nobody caught it. Zod's "received undefined" is a reader's own sentence, so
// `undefined` alone is not here; the V8 JSON.parse echo ("… is not valid JSON") is.
const RAW = /Maximum call stack|\bE(?:SPIPE|ISDIR|NOENT|ADDRINUSE|ACCES|NOTDIR)\b|ERR_[A-Z_]{3,}|\b(?:Type|Range|Syntax|Reference)Error\b|Cannot read propert|is not a function|is not valid JSON|in JSON at position|Unexpected (?:token|end of JSON)|bad_alloc|UNCAUGHT/

/** A cell's documented refusal: its exit and the code it must carry. */
interface Expected {
  readonly exit: number
  readonly code: RegExp
}

const VH = /\bVH_[A-Z0-9_]+\b/
const refusal = (code: RegExp = VH): Expected => ({ exit: EXIT.REFUSAL, code })

/**
 * The exits that are not 2, each documented: upstream's `trace check|evidence` exit 1 when they refuse
 * a specification or a transcript (`UPSTREAM_TRACE_REFUSAL`), with upstream's codes; `stepmap validate`
 * exits 1 for a map it refuses and `evidence validate` 1 for a document the engine would refuse
 * (their `--help`), with the project's code over upstream's.
 */
function expected(slot: string, kind: string): Expected {
  const specRefusal = ['empty', 'binary', 'deep-nested', 'alias-bomb', '100k-key', 'pipe']
  const transcriptRefusal = ['directory', 'empty', 'binary', 'device', 'endless', 'alias-bomb', '100k-key', 'over-limit']
  const documentRefusal = ['empty', 'binary', 'deep-nested', 'alias-bomb', '100k-key', 'pipe']
  if ((slot === 'check --spec' || slot === 'evidence --spec') && specRefusal.includes(kind)) {
    // 100k keys exceed the 1 MiB specification limit before anything is parsed.
    return kind === '100k-key' ? refusal(/VH_INPUT_TOO_LARGE/) : { exit: UPSTREAM_TRACE_REFUSAL, code: /TRACE-SPEC-\d{3}/ }
  }
  if ((slot === 'check --transcript' || slot === 'evidence --transcript') && transcriptRefusal.includes(kind)) {
    return { exit: UPSTREAM_TRACE_REFUSAL, code: /TRACE-ADAPT-\d{3}/ }
  }
  // The trace reader's own refusals, upstream's codes, exit 2 from the verbs upstream does not have.
  if ((slot === 'inspect --transcript' || slot === 'report --transcript' || slot === 'diff A') && transcriptRefusal.includes(kind)) return refusal(/\bVH_[A-Z0-9_]+\b|TRACE-ADAPT-\d{3}/)
  if (slot === 'stepmap validate --map' && documentRefusal.includes(kind) && kind !== '100k-key') return { exit: EXIT.GAP, code: /VH_STEPMAP\b/ }
  if (slot === 'evidence validate' && documentRefusal.includes(kind)) return { exit: EXIT.GAP, code: /VH_EVIDENCE_REFUSED/ }
  return refusal()
}

const root = mkdtempSync(join(tmpdir(), 'vh-hostile-table-'))
afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }))

/** Runs cells in children, one child at a time on this lane; a child a timed-out cell ended is replaced for the rest. */
async function runLane(keys: readonly string[], settle: (key: string, result: CellResult | Error) => void): Promise<void> {
  let pending = [...keys]
  while (pending.length > 0) {
    const reported = new Set<string>()
    let output = ''
    const child = fork('test/helpers/hostile-cells-child.ts', [root, ...pending.map((key) => key.replace(' × ', '\t'))], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    // Each cell bounds itself; this only catches a child that stopped answering altogether.
    const guard = setTimeout(() => child.kill('SIGKILL'), (WALL_MS + 5_000) * pending.length)
    child.on('message', (message: CellResult) => {
      const key = `${message.slot} × ${message.kind}`
      reported.add(key)
      settle(key, message)
    })
    const exit = await new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    clearTimeout(guard)
    const rest = pending.filter((key) => !reported.has(key))
    if (exit !== 3 && rest.length > 0) {
      for (const key of rest) settle(key, new Error(`the child running ${key} ended (${exit}) before reporting it: ${output.slice(-2000)}`))
      return
    }
    pending = rest
  }
}

/** Every cell, on two lanes: the machine has two cores. */
function schedule(): Map<string, Promise<CellResult>> {
  const all = new Map<string, Promise<CellResult>>()
  const settlers = new Map<string, (result: CellResult | Error) => void>()
  const keys = HOSTILE_SLOTS.flatMap((slot) => HOSTILE_KINDS.map((kind) => `${slot} × ${kind}`))
  for (const key of keys) {
    all.set(key, new Promise((resolve, reject) => settlers.set(key, (result) => (result instanceof Error ? reject(result) : resolve(result)))))
  }
  const settle = (key: string, result: CellResult | Error) => settlers.get(key)?.(result)
  for (let lane = 0; lane < LANES; lane++) void runLane(keys.filter((_, index) => index % LANES === lane), settle)
  return all
}

let cells: Map<string, Promise<CellResult>> | undefined
const cell = (slot: string, kind: string): Promise<CellResult> => {
  cells ??= schedule()
  return cells.get(`${slot} × ${kind}`) as Promise<CellResult>
}

describe('every command over hostile and huge input', () => {
  it('covers every command that reads a file', () => {
    const covered = new Set(HOSTILE_SLOTS.map((slot) => slot.split(' ')[0]))
    const readers = COMMANDS.map((command) => command.name).filter((name) => name !== 'capabilities' && name !== 'doctor')
    expect([...covered].sort()).toEqual(readers.sort())
  })

  for (const slot of HOSTILE_SLOTS) {
    for (const kind of HOSTILE_KINDS) {
      it(`${slot} over ${kind}`, { timeout: 180_000 }, async () => {
        const run = await cell(slot, kind)
        const output = `${run.stdout}\n${run.stderr}`
        const want = expected(slot, kind)
        expect(run.code, `${run.argv.join(' ')} did not finish within ${WALL_MS} ms`).not.toBeNull()
        expect(run.cpuMs).toBeLessThan(CELL_MS)
        expect(run.maxRssMb - run.restMb, `peak ${run.maxRssMb} MB over a rest of ${run.restMb} MB`).toBeLessThan(MAX_RSS_MB - FRESH_PROCESS_MB)
        expect(output).not.toContain('    at ')
        expect(output).not.toMatch(RAW)
        expect({ exit: run.code, stderr: run.stderr.slice(0, 600) }).toMatchObject({ exit: want.exit })
        expect(output).toMatch(want.code)
        // The location: the file as the command was given it.
        expect(output).toContain(run.location)
      })
    }
  }
})
