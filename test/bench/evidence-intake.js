// `evidence validate`'s intake over 100,000 well-formed `test_result` records (15 MB of YAML that
// issue 17 timed at 34 s and 1.36 GB), beside a bare `yaml` parse of the same file in the same run.
// Target: under 15 s and 400 MB; the ratio to the bare parse is printed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { measureInChild, timeChildTask } from './lib.js'

const RECORDS = 100_000
const NOW = Date.parse('2026-09-01T12:00:00Z')

if (process.argv[2] === '--child') {
  const text = readFileSync(process.argv[4], 'utf8')
  if (process.argv[3] === 'baseline') {
    const { parse } = await import('yaml')
    await timeChildTask(async () => parse(text).length)
  } else {
    const { validateEvidenceText } = await import('../../dist/src/evidence/intake.js')
    await timeChildTask(async () => {
      const report = validateEvidenceText(text, { now: NOW })
      if (report.accepted.length !== RECORDS) throw new Error(`expected ${RECORDS} accepted records, got ${report.accepted.length}: ${JSON.stringify(report.diagnostics.slice(0, 3))}`)
      return report.accepted.length
    })
  }
}

/** The document: one record as this package renders it, repeated with its numbers changed. */
async function writeDocument() {
  const { renderEvidenceDocument } = await import('../../dist/src/evidence/document.js')
  const { testResultRecord } = await import('../../dist/src/evidence/test-result.js')
  const one = (index) =>
    renderEvidenceDocument(
      [testResultRecord({ suite: `unit-${index}`, passed: 1 + (index % 7), failed: 0, skipped: 1, selector: `test/s${index}.test.ts` }, NOW - 1000 - index, { command: `npx vitest run test/s${index}.test.ts`, tool: 'vitest-harness', environment: 'node-20-linux-x64', inputs: [`test/s${index}.test.ts`] })],
      'yaml',
    )
  const template = one(0)
  const parts = []
  for (let index = 0; index < RECORDS; index++) parts.push(template.replaceAll('s0.test.ts', `s${index}.test.ts`).replace('unit-0', `unit-${index}`).replace(`${NOW - 1000}`, `${NOW - 1000 - index}`))
  const path = join(mkdtempSync(join(tmpdir(), 'vh-bench-evidence-')), 'evidence.yaml')
  writeFileSync(path, parts.join(''))
  return path
}

export async function run() {
  const path = await writeDocument()
  const baseline = await measureInChild(new URL(import.meta.url), 'baseline', [path])
  const subject = await measureInChild(new URL(import.meta.url), 'subject', [path])
  const slower = subject.seconds / baseline.seconds
  const met = subject.seconds < 15 && subject.peakMiB < 400
  console.log(
    [
      `evidence intake: ${RECORDS.toLocaleString('en-US')} test_result records`,
      `  baseline ${baseline.seconds.toFixed(2)} s, peak ${baseline.peakMiB.toFixed(0)} MiB (yaml.parse)`,
      `  subject  ${subject.seconds.toFixed(2)} s, peak ${subject.peakMiB.toFixed(0)} MiB (validateEvidenceText), ${slower.toFixed(2)}× the baseline`,
      `  target   under 15 s and 400 MiB ${met ? 'MET' : 'MISSED'}`,
    ].join('\n'),
  )
  return met
}
