import { describe, expect, it } from 'vitest'
import type { TraceReport } from '../../trace/report-types.js'
import { traceReportProof } from '../trace-proof.js'
import { readHarnessMeta } from './evidence-meta.js'
import { EVIDENCE_REPORTER_DEFAULTS } from './evidence-options.js'
import { globToRegExp, planEvidence, type ModuleView, type TestView } from './evidence-plan.js'

const report: TraceReport = {
  format: 'trace-report/1',
  spec_id: 'demo/spec',
  spec_title: null,
  spec_digest: 'e'.repeat(64),
  transcript_digest: 'f'.repeat(64),
  adapter: { name: 'metaharness/event-stream', written_against: [] },
  redacted: false,
  advisory_overrides: [],
  summary: { total: 1, ok: 1, gap: 0, unknown: 0, advisory_gap: 0, advisory_unknown: 0 },
  verdict: 'ok',
  expectations: [{ id: 'a', statement: null, kind: 'order', severity: 'gate', outcome: { outcome: 'ok', events: [], note: '' }, verdict: 'ok' }],
}

/** The run's key for trace proofs, as the reporter would hold it. */
const KEY = '0123456789abcdef'.repeat(4)

function test(name: string, state: TestView['state'], meta: unknown = undefined, suitePath: string[] = ['s1'], module = 'm.test.ts'): TestView {
  return { fullName: name, module, project: '', suitePath, state, meta: readHarnessMeta(meta, KEY), startTime: 100 }
}

/** Trace meta as the checker attaches it: signed with the run's key. */
function trace(key: string, observedAt = 100, overrides: Partial<TraceReport> = {}): unknown {
  const signed = { ...report, ...overrides }
  return { vitestHarness: { trace: { key, report: signed, observedAt, proof: traceReportProof(KEY, signed) } } }
}

function module(tests: TestView[], extra: Partial<ModuleView> = {}): ModuleView {
  return { module: 'm.test.ts', project: '', failedOutsideTests: false, duration: 5, tests, ...extra }
}

function kinds(modules: ModuleView[], options = EVIDENCE_REPORTER_DEFAULTS): string[] {
  return planEvidence(modules, options).records.map((record) => record.kind)
}

describe('planEvidence', () => {
  it('ignores an ordinary test outside the group’s suite, and refuses the group for one inside it', () => {
    const outside = module([test('check', 'passed', trace('k')), test('other', 'skipped', undefined, ['s2'])])
    expect(kinds([outside], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' })).toEqual(['trace_conformance'])
    const inside = module([test('check', 'passed', trace('k')), test('other', 'skipped')])
    const plan = planEvidence([inside], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' })
    expect(plan.records).toEqual([])
    expect(plan.notes).toEqual(['no trace_conformance for demo/spec (k): other was skipped'])
  })

  it('mints nothing from trace meta without the checker’s proof, or with another key’s, and says why', () => {
    const byHand = { vitestHarness: { trace: { key: 'k', report, observedAt: 100 } } }
    const plan = planEvidence([module([test('forged', 'passed', byHand)])], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' })
    expect(plan.records).toEqual([])
    expect(plan.notes).toEqual([expect.stringMatching(/^forged: vitestHarness\.trace carries no proof that the trace checker attached it/)])
    const otherRun = { vitestHarness: { trace: { key: 'k', report, observedAt: 100, proof: traceReportProof('another run'.padEnd(32, '!'), report) } } }
    expect(planEvidence([module([test('replayed', 'passed', otherRun)])], EVIDENCE_REPORTER_DEFAULTS).notes).toEqual([expect.stringMatching(/^replayed: vitestHarness\.trace's proof does not match its report/)])
    // Nor when the reporter holds no key at all.
    const keyless: TestView = { ...test('check', 'passed'), meta: readHarnessMeta(trace('k')) }
    expect(planEvidence([module([keyless])], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' }).records).toEqual([])
  })

  it('refuses a group whose test is unfinished, or whose tests disagree about the report', () => {
    expect(kinds([module([test('check', 'pending', trace('k'))])], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' })).toEqual([])
    const disagree = planEvidence([module([test('a', 'passed', trace('k')), test('b', 'passed', trace('k', 100, { spec_id: 'other' }))])], EVIDENCE_REPORTER_DEFAULTS)
    expect(disagree.records.map((record) => record.kind)).toEqual(['test_result'])
    expect(disagree.notes[0]).toMatch(/carry different reports under one key/)
  })

  it('refuses a group holding meta it cannot read, and names the field', () => {
    const broken = { vitestHarness: { trace: { key: 'k', report: { ...report, verdict: 'maybe' }, observedAt: 1 } } }
    const plan = planEvidence([module([test('check', 'passed', trace('k')), test('broken', 'passed', broken)])], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' })
    expect(plan.records).toEqual([])
    expect(plan.notes).toEqual([expect.stringMatching(/^broken: vitestHarness\.trace is not a TraceCheckMeta: report\.verdict /), expect.stringMatching(/^no trace_conformance for demo\/spec \(k\): broken: vitestHarness\.trace/)])
  })

  it('dates a group by its earliest check and refuses a report whose digest is not one', () => {
    const [record] = planEvidence([module([test('a', 'passed', trace('k', 300)), test('b', 'failed', trace('k', 200))])], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' }).records
    expect(record?.mint(undefined).observed_at).toBe(200)
    const bad = planEvidence([module([test('a', 'passed', trace('k', 1, { spec_digest: 'not hex' }))])], { ...EVIDENCE_REPORTER_DEFAULTS, testResults: 'off' })
    expect(bad.records).toEqual([])
    expect(bad.notes[0]).toMatch(/spec_digest "not hex" is not a digest/)
  })

  it('writes no test_result for a module that failed outside its tests or did not finish', () => {
    expect(kinds([module([test('a', 'passed')], { failedOutsideTests: true })])).toEqual([])
    expect(kinds([module([test('a', 'passed'), test('b', 'pending')])])).toEqual([])
    expect(kinds([module([test('a', 'skipped')])])).toEqual([])
    expect(kinds([module([test('a', 'passed')])])).toEqual(['test_result'])
  })

  it('groups modules by selector, and writes durations only when asked', () => {
    const modules = [module([test('a', 'passed', undefined, [], 'test/unit/a.test.ts')], { module: 'test/unit/a.test.ts' }), module([test('b', 'failed', undefined, [], 'test/unit/deep/b.test.ts')], { module: 'test/unit/deep/b.test.ts' }), module([test('c', 'passed', undefined, [], 'test/e2e/c.test.ts')], { module: 'test/e2e/c.test.ts' })]
    const plan = planEvidence(modules, { ...EVIDENCE_REPORTER_DEFAULTS, durations: true, testResults: [{ suite: 'unit', selector: 'test/unit/**' }, { suite: 'integration', selector: 'test/none/**' }] })
    expect(plan.records.map((record) => record.mint(undefined))).toEqual([expect.objectContaining({ suite: 'unit', passed: 1, failed: 1, skipped: 0, duration_ms: 10, selector: 'test/unit/**' })])
  })

  it('is independent of the order modules arrive in', () => {
    const a = module([test('a', 'passed', trace('k', 5))], { module: 'a.test.ts' })
    const b = module([test('b', 'passed', trace('k', 3), ['s1'], 'b.test.ts')], { module: 'b.test.ts' })
    const forward = planEvidence([a, b], EVIDENCE_REPORTER_DEFAULTS).records.map((record) => [record.stem, record.inputs, record.mint(undefined)])
    const backward = planEvidence([b, a], EVIDENCE_REPORTER_DEFAULTS).records.map((record) => [record.stem, record.inputs, record.mint(undefined)])
    expect(backward).toEqual(forward)
  })
})

describe('globToRegExp', () => {
  it.each([
    ['test/unit/**', 'test/unit/a.test.ts', true],
    ['test/unit/**', 'test/unit/x/y/a.test.ts', true],
    ['test/**/*.test.ts', 'test/a.test.ts', true],
    ['test/*.test.ts', 'test/x/a.test.ts', false],
    ['src/?.ts', 'src/a.ts', true],
    ['src/a.ts', 'src/abts', false],
  ])('%s matches %s: %s', (glob, path, matches) => {
    expect(globToRegExp(glob).test(path)).toBe(matches)
  })
})
