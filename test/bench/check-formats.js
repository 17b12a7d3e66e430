// Checking a 500,000-line transcript in each non-native line format against converting it alone,
// both in the same run (alternating, fastest of three rounds each): the check reads the adapter's
// events directly, so it should cost little more than the conversion. Target (issue 15): checking
// costs ≤ 1.15× converting, i.e. a rate ≥ 0.87 of the conversion's.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { UNITS, ensureFile, fileFor } from './convert.js'
import { fastestOfRounds, measureInChild, report, timeChildTask } from './lib.js'

const LINES = Number(process.env['BENCH_CONVERT_LINES'] ?? 500_000)
const ROUNDS = Number(process.env['BENCH_CHECK_FORMAT_ROUNDS'] ?? 3)
const TARGET = 1 / 1.15
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const SPEC = join(ROOT, '..', 'shared', 'reference', 'aep', 'eval', 'development-honest', 'expectations.trace.yaml')
// The stream-json wire is read by the trace reader itself, as upstream reads it: it is not converted.
const CONVERTED = Object.keys(UNITS).filter((format) => format !== 'claude-code/stream-json')

async function child(task, format) {
  const file = fileFor(format)
  if (task === 'baseline') {
    const { convertTranscript } = await import('../../dist/adapters/transcript/read.js')
    await timeChildTask(async () => {
      let chars = 0
      for await (const chunk of convertTranscript(file, { from: format, run: 'bench' })) chars += chunk.length
      if (chars === 0) throw new Error('the conversion wrote nothing')
      return LINES
    })
    return
  }
  const { readSpecFile, checkTranscriptFile } = await import('../../dist/src/public/index.js')
  const spec = readSpecFile(SPEC)
  await timeChildTask(async () => {
    const checked = await checkTranscriptFile(spec, file, { from: format })
    if (checked.summary.total !== 12) throw new Error(`the check went wrong: ${JSON.stringify(checked.summary)}`)
    return LINES
  })
}

export async function run() {
  if (!existsSync(SPEC)) throw new Error(`the reference spec ${SPEC} is missing: run the bench beside ../shared`)
  let met = true
  const only = process.env['BENCH_CONVERT_FORMATS']?.split(',')
  for (const format of CONVERTED.filter((name) => !only || only.includes(name))) {
    await ensureFile(format)
    const { baseline, subject } = await fastestOfRounds(
      ROUNDS,
      () => measureInChild(import.meta.url, 'baseline', [format]),
      () => measureInChild(import.meta.url, 'subject', [format]),
    )
    met = report({ title: `check ${format} vs convert alone — ${LINES.toLocaleString('en-US')} lines, streamed`, unit: 'lines', subject, baseline, target: Number(TARGET.toFixed(2)) }) && met
  }
  return met
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4])
