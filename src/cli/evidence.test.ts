import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { tree } from '../../test/helpers/tree.js'
import { renderEvidenceDocument } from '../evidence/document.js'
import { testResultRecord } from '../evidence/test-result.js'
import type { TraceReport } from '../trace/report-types.js'
import { parseArgs } from './args.js'
import { createEvidenceCommand, type CheckTrace } from './evidence.js'

const NOW = Date.parse('2026-09-01T12:00:00Z')

const good = renderEvidenceDocument([testResultRecord({ suite: 'unit', passed: 1, failed: 0, skipped: 0 }, NOW - 1000)], 'yaml')
const future = renderEvidenceDocument([testResultRecord({ suite: 'unit', passed: 1, failed: 0, skipped: 0 }, NOW - 1000), testResultRecord({ suite: 'e2e', passed: 1, failed: 0, skipped: 0 }, NOW + 1)], 'yaml')

describe('vitest-harness evidence validate', () => {
  it('exits 0 when every record is accepted, and says so per file', async () => {
    const dir = tree({ 'a.yaml': good })
    const run = await runCli(['evidence', 'validate', '--now', String(NOW), 'a.yaml'], { cwd: dir })
    expect(run).toEqual({ code: 0, stdout: 'a.yaml: 1 record — 1 accepted, 0 refused\n', stderr: '' })
  })

  it('exits 1 when a record is refused, naming the record in upstream’s words', async () => {
    const dir = tree({ 'a.yaml': good, 'b.yaml': future })
    const run = await runCli(['evidence', 'validate', '--now', String(NOW), 'a.yaml', 'b.yaml'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe(
      [
        'a.yaml: 1 record — 1 accepted, 0 refused',
        `b.yaml: record 2: the observation time ${NOW + 1}ms has not happened yet; the clock reads 2026-09-01T12:00:00Z (${NOW}ms)`,
        'b.yaml: 2 records — 1 accepted, 1 refused',
        '',
      ].join('\n'),
    )
  })

  it('refuses a whole document whose shape the engine cannot parse', async () => {
    const dir = tree({ 'bad.yaml': `${good}  flaky: 3\n` })
    const run = await runCli(['evidence', 'validate', '--now', String(NOW), 'bad.yaml'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^bad\.yaml:\d+:3: record 1: UNKNOWN_FIELD at flaky: unknown field `flaky` in a test_result record/)
    expect(run.stdout).toContain('bad.yaml: VH_EVIDENCE_REFUSED: refused — the engine reads none of its 1 record\n')
  })

  it('checks every kind: a review is accepted (exit 0) or refused (exit 1), never left unchecked', async () => {
    const review = '- kind: review\n  subject: design:passkeys\n  reviewer: {reviewer: human, id: ada}\n  disposition: approved\n  observed_at: 2026-08-01\n  producer: {producer: human, id: ada}\n'
    const dir = tree({ 'ok.yaml': review, 'bad.yaml': review.replace('disposition: approved', 'disposition: lgtm') })
    expect(await runCli(['evidence', 'validate', '--now', String(NOW), 'ok.yaml'], { cwd: dir })).toEqual({ code: 0, stdout: 'ok.yaml: 1 record — 1 accepted, 0 refused\n', stderr: '' })
    const refused = await runCli(['evidence', 'validate', '--now', String(NOW), 'bad.yaml'], { cwd: dir })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('bad.yaml:4:16: record 1: INVALID_VALUE at disposition: unknown review disposition "lgtm", expected one of approved, changes_requested, rejected\nbad.yaml: VH_EVIDENCE_REFUSED: refused — the engine reads none of its 1 record\n')
  })

  it('reads stdin for -, and defaults the clock to now', async () => {
    const run = await runCli(['evidence', 'validate', '-'], { stdin: good })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('-: 1 record — 1 accepted, 0 refused\n')
  })

  it.each([
    [['evidence', 'validate'], /name at least one evidence file/],
    [['evidence', 'validate', '--now', 'soon', 'a.yaml'], /--now "soon": expected YYYY-MM-DD or epoch milliseconds/],
    [['evidence', 'validate', '/no/such.yaml'], /^error: VH_INPUT_MISSING at \/no\/such\.yaml: cannot read the evidence document: no such file/],
    [['evidence'], /--spec and --transcript are required \(or use `evidence validate FILE…`\)/],
    [['evidence', '--spec', 's.yaml'], /--spec and --transcript are required/],
    [['evidence', '--spec', '/no/such.yaml', '--transcript', '/no/such.jsonl'], /^error: VH_INPUT_MISSING at \/no\/such\.yaml: cannot read the specification: no such file/],
  ])('%j exits 2 with `error: …`', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: /)
    expect(run.stderr).toMatch(message)
  })
})

// The mint half, driven by a stand-in checker: the real one is the trace engineer's and is wired
// in when the branches meet. What is under test here is everything after the report exists.
function report(verdict: 'ok' | 'gap'): TraceReport {
  return {
    format: 'trace-report/1',
    spec_id: 'demo/spec',
    spec_title: null,
    spec_digest: 'c'.repeat(64),
    transcript_digest: 'd'.repeat(64),
    adapter: { name: 'metaharness/event-stream', written_against: ['metaharness.event/1'] },
    redacted: false,
    advisory_overrides: [],
    summary: { total: 1, ok: verdict === 'ok' ? 1 : 0, gap: verdict === 'gap' ? 1 : 0, unknown: 0, advisory_gap: 0, advisory_unknown: 0 },
    verdict,
    expectations: [{ id: 'row', statement: null, kind: 'order', severity: 'gate', outcome: { outcome: verdict, events: [1], note: 'n' }, verdict }],
  }
}

async function runMint(argv: string[], checkTrace: CheckTrace, cwd: string): Promise<{ code: number; stdout: string }> {
  const command = createEvidenceCommand(checkTrace)
  let stdout = ''
  const code = await command.run(parseArgs(argv, command.options), {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: () => true },
    stdin: Readable.from([]),
    cwd,
    env: {},
  })
  return { code, stdout }
}

describe('vitest-harness evidence --spec … --transcript … (record side)', () => {
  it('passes the paths and downgrades to the checker and writes a list of one to stdout', async () => {
    const calls: unknown[] = []
    const run = await runMint(['--spec', 's.yaml', '--transcript', 't.jsonl', '--advisory', 'row', '--observed-at', '2026-09-01'], (...args) => (calls.push(args), report('ok')), '/work/x')
    // The paths as given (the checker resolves them against the working directory), and the CLI's io.
    expect(calls.map((call) => (call as unknown[]).slice(0, 3))).toEqual([['s.yaml', 't.jsonl', ['row']]])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^- kind: trace_conformance\n/)
    expect(run.stdout).toContain('\n  observed_at: 1788220800000\n')
    expect(run.stdout).toContain('\n    command: vitest-harness evidence --spec s.yaml --transcript t.jsonl --advisory row\n    inputs:\n    - s.yaml\n    - t.jsonl\n')
  })

  it('exits 0 on a gap too, and with --out writes the file and prints `<file> — <status>`', async () => {
    const dir = tree({})
    const run = await runMint(['--spec', 's.yaml', '--transcript', 't.jsonl', '--out', 'out/rec.json', '--format', 'json', '--observed-at', '5'], () => report('gap'), dir)
    expect(run).toEqual({ code: 0, stdout: 'out/rec.json — failed\n' })
    const [record] = JSON.parse(readFileSync(join(dir, 'out', 'rec.json'), 'utf8')) as [{ status: string; observed_at: number; gapped_expectations: string[] }]
    expect(record).toMatchObject({ status: 'failed', observed_at: 5, gapped_expectations: ['row'] })
  })

  it('stamps the time of the check when no --observed-at is given', async () => {
    const before = Date.now()
    const run = await runMint(['--spec', 's', '--transcript', 't', '--format', 'json'], () => report('ok'), '/')
    const [{ observed_at }] = JSON.parse(run.stdout) as [{ observed_at: number }]
    expect(observed_at).toBeGreaterThanOrEqual(before)
    expect(observed_at).toBeLessThanOrEqual(Date.now())
  })

  it('removes the --out file when it refuses, so the previous run’s passed record does not stand', async () => {
    const dir = tree({})
    expect((await runMint(['--spec', 's.yaml', '--transcript', 't.jsonl', '--out', 'rec.yaml'], () => report('ok'), dir)).stdout).toBe('rec.yaml — passed\n')
    expect(existsSync(join(dir, 'rec.yaml'))).toBe(true)
    const refusing: CheckTrace = () => {
      throw new Error('the transcript cannot be read')
    }
    await expect(runMint(['--spec', 's.yaml', '--transcript', 't.jsonl', '--out', 'rec.yaml'], refusing, dir)).rejects.toThrow(/cannot be read/)
    expect(existsSync(join(dir, 'rec.yaml'))).toBe(false)
    // A refusal of the options themselves, before any check, too.
    writeFileSync(join(dir, 'rec.yaml'), 'stale\n')
    await expect(runMint(['--spec', 's.yaml', '--transcript', 't.jsonl', '--out', 'rec.yaml', '--observed-at', 'later'], () => report('ok'), dir)).rejects.toThrow(/--observed-at "later"/)
    expect(existsSync(join(dir, 'rec.yaml'))).toBe(false)
  })

  it('removes the --out file when the real checker refuses the spec (exit 1, as upstream)', async () => {
    const dir = tree({ 'rec.yaml': '- kind: trace_conformance\n  status: passed\n', 'spec.yaml': 'format: trace-spec/9\n', 't.jsonl': '' })
    const run = await runCli(['evidence', '--spec', 'spec.yaml', '--transcript', 't.jsonl', '--out', 'rec.yaml'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(existsSync(join(dir, 'rec.yaml'))).toBe(false)
  })

  it('refuses a bad --observed-at before running the check', async () => {
    let checked = false
    await expect(runMint(['--spec', 's', '--transcript', 't', '--observed-at', 'later'], () => ((checked = true), report('ok')), '/')).rejects.toThrow(/--observed-at "later"/)
    expect(checked).toBe(false)
  })
})
