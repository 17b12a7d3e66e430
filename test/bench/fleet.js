// A fleet of 2,000 transcripts (metaharness.event/1 streams of 200 events each, generated into the
// OS temp dir) checked against upstream's development-honest spec on worker threads: every core
// against one core, in the same run (alternating, fastest of three rounds each). Target (issue
// 15): ≥ 1.7× on 2 cores (on one core there is nothing to spread, and the target is not judged).
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { measureInChild, report, timeChildTask } from './lib.js'
import { writeStream } from './trace-check.js'

const TRANSCRIPTS = Number(process.env['BENCH_FLEET_TRANSCRIPTS'] ?? 2000)
const EVENTS = Number(process.env['BENCH_FLEET_EVENTS'] ?? 200)
const ROUNDS = Number(process.env['BENCH_FLEET_ROUNDS'] ?? 3)
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const SPEC = join(ROOT, '..', 'shared', 'reference', 'aep', 'eval', 'development-honest', 'expectations.trace.yaml')
const DIR = join(tmpdir(), `vitest-harness-bench-fleet-${TRANSCRIPTS}x${EVENTS}`)

async function ensureFleet() {
  if (existsSync(DIR) && readdirSync(DIR).length === TRANSCRIPTS) return
  mkdirSync(DIR, { recursive: true })
  for (let i = 0; i < TRANSCRIPTS; i++) await writeStream(join(DIR, `run-${String(i).padStart(5, '0')}.jsonl`), { events: EVENTS })
}

async function child(task) {
  const { checkFleet } = await import('../../dist/src/fleet/pool.js')
  const jobs = task === 'baseline' ? 1 : availableParallelism()
  const tasks = readdirSync(DIR)
    .sort()
    .map((name, index) => ({ index, path: join(DIR, name), source: name }))
  await timeChildTask(async () => {
    const results = await checkFleet({ specPath: SPEC, advisory: [], redact: false, from: undefined }, tasks, { jobs })
    const ok = results.filter((result) => result.outcome === 'report' && result.report.summary.total === 12).length
    if (ok !== tasks.length) throw new Error(`the fleet went wrong: ${ok} of ${tasks.length} reports`)
    return tasks.length
  })
}

export async function run() {
  if (!existsSync(SPEC)) throw new Error(`the reference spec ${SPEC} is missing: run the bench beside ../shared`)
  await ensureFleet()
  let baseline
  let subject
  for (let round = 0; round < ROUNDS; round++) {
    const b = await measureInChild(import.meta.url, 'baseline')
    const s = await measureInChild(import.meta.url, 'subject')
    if (!baseline || b.rate > baseline.rate) baseline = b
    if (!subject || s.rate > subject.rate) subject = s
  }
  const cores = availableParallelism()
  const met = report({ title: `fleet — ${TRANSCRIPTS.toLocaleString('en-US')} transcripts of ${EVENTS} events, ${cores} worker thread(s) vs 1`, unit: 'transcripts', subject, baseline, target: cores >= 2 ? 1.7 : 1 })
  return cores >= 2 ? met : true
}

if (process.argv[2] === '--child') await child(process.argv[3])
