import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { sha256Hex } from '../../src/events/digest.js'
import { contractResult, contractResultLine } from '../../src/evidence/contract-result.js'
import { traceConformancePassed } from '../../src/evidence/trace-conformance.js'
import type { TraceConformanceRecord } from '../../src/evidence/types.js'
import { runCli } from '../helpers/cli.js'
import { referenceFile } from './paths.js'

describe('evidence validate --now 2026-09-01 writers-day.yaml (the engine’s intake rules)', () => {
  // `--now 2026-09-01` pins the clock to the last millisecond of that day, as upstream's
  // `evidence inspect --at 2026-09-01` does: 2026-09-01T23:59:59.999Z.
  const clock = Date.parse('2026-09-02T00:00:00Z') - 1
  const fourteenHours = 14 * 3_600_000

  it.each([
    // 1 — a day, 2026-09-01: it began (at UTC+14) long before the clock. Accepted.
    [1, 'accepted', Date.parse('2026-09-01T00:00:00Z') - fourteenHours <= clock],
    // 2 — a day, 2026-09-02: it begins at UTC+14 at 2026-09-01T10:00Z, before the clock, so somebody
    //     on earth is already having it. Accepted.
    [2, 'accepted', Date.parse('2026-09-02T00:00:00Z') - fourteenHours <= clock],
    // 3 — the instant 1788307200000 = 2026-09-02T00:00Z, compared exactly: one millisecond after the
    //     clock. Refused — the same moment as record 2's midnight, but spelled as an instant.
    [3, 'refused', 1788307200000 <= clock],
    // 4 — a day, 2026-09-03: it begins at UTC+14 at 2026-09-02T10:00Z, after the clock. Refused.
    [4, 'refused', Date.parse('2026-09-03T00:00:00Z') - fourteenHours <= clock],
    // 5 — the instant 1788271620000 = 2026-09-01T14:07Z, inside the reference day. Accepted.
    [5, 'accepted', 1788271620000 <= clock],
  ])('record %i is %s', async (record, verdict, begunByTheClock) => {
    // The reasoning above, checked against the arithmetic, then against the tool.
    expect(begunByTheClock).toBe(verdict === 'accepted')
    const run = await runCli(['evidence', 'validate', '--now', '2026-09-01', referenceFile('aep', 'evidence', 'writers-day.yaml')])
    const refusal = run.stdout.split('\n').find((line) => line.includes(`: record ${record}: `))
    expect(refusal !== undefined).toBe(verdict === 'refused')
  })

  it('refuses exactly records 3 and 4, in upstream’s words, and exits 1', async () => {
    const file = referenceFile('aep', 'evidence', 'writers-day.yaml')
    const run = await runCli(['evidence', 'validate', '--now', '2026-09-01', file])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe(
      [
        `${file}: record 3: the observation time 1788307200000ms has not happened yet; the clock reads 2026-09-01T23:59:59Z (1788307199999ms)`,
        `${file}: record 4: the observation time 2026-09-03 has not happened yet; the clock reads 2026-09-01T23:59:59Z (1788307199999ms)`,
        `${file}: 5 records — 3 accepted, 2 refused`,
        '',
      ].join('\n'),
    )
  })

  it('with the clock at the day’s first millisecond, tomorrow’s day and the instant later today are refused too', async () => {
    // 2026-09-02 begins at UTC+14 at 2026-09-01T10:00Z and 14:07Z is after midnight: both after this clock.
    const run = await runCli(['evidence', 'validate', '--now', String(Date.parse('2026-09-01T00:00:00Z')), referenceFile('aep', 'evidence', 'writers-day.yaml')])
    expect(run.code).toBe(1)
    expect(run.stdout.match(/: record (\d): /g)).toEqual([': record 2: ', ': record 3: ', ': record 4: ', ': record 5: '])
  })
})

describe('trace_conformance for eval/development-honest, minted by `vitest-harness evidence` from the real check', () => {
  const specPath = referenceFile('aep', 'eval', 'development-honest', 'expectations.trace.yaml')
  const transcriptPath = referenceFile('aep', 'eval', 'development-honest', 'transcript.jsonl')

  // The upstream example's fields, in its order (the guide's record, notes/aep.md §2.1).
  const UPSTREAM_EXAMPLE_FIELDS = ['kind', 'specification', 'spec_digest', 'transcript_digest', 'status', 'expectations_total', 'expectations_gapped', 'expectations_unknown', 'adapter', 'observed_at', 'producer', 'provenance']

  it('has every field of the upstream example in upstream order, the figures of the case, and the file’s digest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-dev-honest-'))
    const argv = ['evidence', '--spec', specPath, '--transcript', transcriptPath, '--out', 'dev-honest.yaml', '--observed-at', '2026-09-01']
    const minted = await runCli(argv, { cwd: dir })
    expect(minted).toEqual({ code: 0, stdout: 'dev-honest.yaml — passed\n', stderr: '' })

    const text = readFileSync(join(dir, 'dev-honest.yaml'), 'utf8')
    const [record] = parse(text) as [TraceConformanceRecord]
    const fields = Object.keys(record)
    expect(fields.filter((field) => UPSTREAM_EXAMPLE_FIELDS.includes(field))).toEqual(UPSTREAM_EXAMPLE_FIELDS)
    expect(fields).toEqual([...UPSTREAM_EXAMPLE_FIELDS.slice(0, 9), 'gapped_expectations', ...UPSTREAM_EXAMPLE_FIELDS.slice(9)])
    expect(record).toMatchObject({
      kind: 'trace_conformance',
      specification: 'eval-case/development-default',
      status: 'passed',
      expectations_total: 12,
      expectations_gapped: 1,
      expectations_unknown: 0,
      adapter: 'metaharness/event-stream (written against metaharness.event/1)',
      gapped_expectations: ['the-scope-was-actually-tested'],
      observed_at: Date.parse('2026-09-01T00:00:00Z'),
      producer: { producer: 'verifier', verifier: 'trace-checker' },
      provenance: { command: `vitest-harness evidence --spec ${specPath} --transcript ${transcriptPath}`, inputs: [specPath, transcriptPath] },
    })
    expect(record.transcript_digest).toBe(sha256Hex(readFileSync(transcriptPath)))
    // The spec digest is the checker's: the one `check --format json` reports for the same spec.
    const checked = await runCli(['check', '--spec', specPath, '--transcript', transcriptPath, '--format', 'json'])
    expect(record.spec_digest).toBe((JSON.parse(checked.stdout) as { spec_digest: string }).spec_digest)
    // An advisory gap leaves the status passed and the `passed` fact false.
    expect(traceConformancePassed(record)).toBe(false)

    const validated = await runCli(['evidence', 'validate', '--now', '2026-09-01', join(dir, 'dev-honest.yaml')])
    expect(validated.stdout).toBe(`${join(dir, 'dev-honest.yaml')}: 1 record — 1 accepted, 0 refused\n`)
    expect(validated.code).toBe(0)
  })
})

describe('contract_result line', () => {
  it('is byte for byte the line `metaharness conformance b10x --contract` printed', () => {
    const seven = Array.from({ length: 7 }, (_, index) => ({ tier: index < 1 ? 'c1' : 'c2', passed: true }))
    expect(contractResultLine(contractResult(seven, 'b10x 0.12.1'))).toBe(readFileSync(referenceFile('metaharness', 'contract', 'contract-result-b10x.json'), 'utf8'))
  })
})
