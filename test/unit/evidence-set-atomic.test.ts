import { spawn } from 'node:child_process'
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { verifyEvidenceSet } from '../../src/evidence/evidence-set-verify.js'
import { newRunId, writeEvidenceSet } from '../../src/evidence/evidence-set.js'
import { runCli } from '../helpers/cli.js'
import { evidenceSetDocuments } from '../helpers/evidence-sets.js'

// The reporter's write, in a child that is SIGKILLed at random points, and two children writing one
// outDir at once: whatever happens, outDir is the old complete set or the new complete set, and
// `evidence validate DIR` accepts it.
const ROOT = resolve(import.meta.dirname, '..', '..')
const WRITER = join(ROOT, 'test', 'fixtures', 'commands', 'write-evidence-set.ts')
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
const DOCUMENTS = 12
const PAUSE_MS = 3

/** A small seeded generator, so a failing trial can be replayed with VH_KILL_SEED. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}

interface Writer {
  /** The writer's run id, once it has said it. */
  runId: () => string | undefined
  /** Every step it reported: `file …`, `manifest`, `swapped`. */
  steps: string[]
  kill: () => void
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  onStep: (listener: (step: string) => void) => void
}

function startWriter(outDir: string, label: string, options: { pauseMs?: number; log?: string[] } = {}): Writer & { go: () => void } {
  const together = options.log !== undefined
  const args = [WRITER, outDir, String(DOCUMENTS), String(options.pauseMs ?? PAUSE_MS), label, ...(together ? ['wait'] : [])]
  const child = spawn(process.execPath, ['--import', TSX, ...args], { stdio: [together ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
  const steps: string[] = []
  const listeners: ((step: string) => void)[] = []
  let runId: string | undefined
  let pending = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8')
    let newline = pending.indexOf('\n')
    while (newline >= 0) {
      const line = pending.slice(0, newline)
      pending = pending.slice(newline + 1)
      if (line.startsWith('run ')) runId = line.slice(4)
      else steps.push(line)
      options.log?.push(`${label} ${line}`)
      for (const listener of listeners) listener(line)
      newline = pending.indexOf('\n')
    }
  })
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')))
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((settle, fail) =>
    child.on('close', (code, signal) => (code !== 0 && signal === null ? fail(new Error(`the writer failed (${code}): ${stderr}`)) : settle({ code, signal }))),
  )
  return { runId: () => runId, steps, kill: () => child.kill('SIGKILL'), done, onStep: (listener) => listeners.push(listener), go: () => void child.stdin?.end() }
}

/** The run id outDir's set names, after checking the set is complete; fails the test otherwise. */
function completeSetId(outDir: string): string {
  const check = verifyEvidenceSet(outDir)
  expect(check.problems).toEqual([])
  return check.manifest?.run_id as string
}

async function validateAccepts(outDir: string): Promise<void> {
  const run = await runCli(['evidence', 'validate', '--now', '2030-01-01', outDir])
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
}

describe('an evidence set written by a writer that is killed', () => {
  const seed = Number(process.env['VH_KILL_SEED'] ?? Date.now() % 1_000_000)

  it(`is the old complete set or the new complete set after each of 20 SIGKILLs (seed ${seed})`, async () => {
    const next = random(seed)
    const outDir = join(mkdtempSync(join(tmpdir(), 'vh-evidence-kill-')), 'evidence')
    let current = writeEvidenceSet(outDir, newRunId(), evidenceSetDocuments('start', DOCUMENTS)).manifest.run_id
    const outcomes = { old: 0, new: 0 }
    for (let trial = 0; trial < 20; trial++) {
      const writer = startWriter(outDir, `trial-${trial}`)
      if (trial % 2 === 0) {
        // After k steps: k files (0…DOCUMENTS), the manifest, or the swap. The first two trials
        // pin both ends (after the swap, before any file), so both outcomes are seen.
        const k = trial === 0 ? DOCUMENTS + 2 : trial === 2 ? 0 : Math.floor(next() * (DOCUMENTS + 3))
        writer.onStep(() => {
          if (writer.steps.length >= k) writer.kill()
        })
        if (k === 0) writer.onStep((line) => void (line.startsWith('run ') && writer.kill()))
      } else {
        // At a random moment once it has begun.
        const delay = next() * (DOCUMENTS + 2) * PAUSE_MS * 1.5
        writer.onStep((line) => void (line.startsWith('run ') && setTimeout(writer.kill, delay)))
      }
      await writer.done
      const now = completeSetId(outDir)
      expect([current, writer.runId()], `trial ${trial}, seed ${seed}`).toContain(now)
      if (now === writer.runId()) {
        expect(writer.steps).toContain('manifest')
        outcomes.new++
      } else outcomes.old++
      await validateAccepts(outDir)
      current = now
    }
    expect(outcomes.old).toBeGreaterThan(0)
    expect(outcomes.new).toBeGreaterThan(0)
  }, 120_000)
})

describe('two runs writing one outDir at once', () => {
  it('leave one complete set, and every look in between sees a complete set', async () => {
    const outDir = join(mkdtempSync(join(tmpdir(), 'vh-evidence-race-')), 'evidence')
    writeEvidenceSet(outDir, newRunId(), evidenceSetDocuments('start', DOCUMENTS))
    for (let round = 0; round < 3; round++) {
      const before = completeSetId(outDir)
      // Both are held at the start until both are up, then let go together, so their writes overlap.
      const log: string[] = []
      const writers = [startWriter(outDir, `a-${round}`, { pauseMs: 10, log }), startWriter(outDir, `b-${round}`, { pauseMs: 10, log })]
      await Promise.all(writers.map((writer) => new Promise<void>((up) => writer.onStep((line) => void (line.startsWith('run ') && up())))))
      for (const writer of writers) writer.go()
      let looks = 0
      let running = true
      const watcher = (async () => {
        while (running) {
          // A look counts only when outDir named the same set before and after it: a set being
          // pruned is never current again, so such a look read one set from start to end.
          const target = realpathSync(outDir)
          const check = verifyEvidenceSet(target)
          if (realpathSync(outDir) === target) {
            expect(check.problems).toEqual([])
            looks++
          }
          await new Promise((settle) => setTimeout(settle, 1))
        }
      })()
      await Promise.all(writers.map((writer) => writer.done))
      running = false
      await watcher
      expect(looks).toBeGreaterThan(0)
      // They did overlap: each wrote a file before the other had swapped.
      const firstFile = (label: string) => log.findIndex((line) => line.startsWith(`${label} file `))
      const swapped = (label: string) => log.indexOf(`${label} swapped`)
      expect(firstFile(`a-${round}`)).toBeLessThan(swapped(`b-${round}`))
      expect(firstFile(`b-${round}`)).toBeLessThan(swapped(`a-${round}`))
      const after = completeSetId(outDir)
      expect(writers.map((writer) => writer.runId())).toContain(after)
      expect(after).not.toBe(before)
      await validateAccepts(outDir)
    }
  }, 120_000)
})
