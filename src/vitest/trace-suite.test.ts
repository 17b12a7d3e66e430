import { beforeAll, describe, expect, it } from 'vitest'
import { runInnerVitest, type InnerTest } from '../../test/helpers/inner-vitest.js'
import { call, closed, ended, metaharness, result, start } from '../../test/helpers/trace.js'
import type { TraceCheckMeta } from './meta.js'

// A run that ran its suite, edited a file, cost $0.25 and recorded no aggregate usage.
const TRANSCRIPT = metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), result('c-1'), call('c-2', 'Edit', { file_path: 'a.ts' }), result('c-2'), ended({ usage: null }), closed(6)])

const SPEC = `spec({
  id: 'inner/suite',
  expectations: [
    { id: 'ran-the-suite', statement: 'the suite ran', expect: { 'tool.called': { tool: 'Bash', args: { command: { contains: 'npm test' } } } } },
    { id: 'never-edited', statement: 'nothing was edited', expect: { 'tool.absent': { tool: 'Edit' } } },
    { id: 'cache-advisory', severity: 'advisory', expect: { 'cache.used': { equals: true } } },
    { id: 'cheap-advisory', severity: 'advisory', expect: { 'cost.total': { at_most_usd: 0.01 } } },
    { id: 'used-the-cache', expect: { 'cache.used': { equals: true } } },
  ],
})`

const SUITES = `
import { describeTraceSpec } from '@src/vitest/trace-suite.ts'
import { spec } from '@src/trace/spec/builder.ts'
const text = ${JSON.stringify(TRANSCRIPT)}
const s = ${SPEC}
describeTraceSpec(s, { text }, { name: 'fails' })
describeTraceSpec(s, { text }, { name: 'todo', unknown: 'todo' })
describeTraceSpec(s, { text: 'not json\\n' }, { name: 'refused' })
describeTraceSpec(s, { text }, { name: 'redacted', redact: true })
`

const MATCHERS = `
import { expect, test } from 'vitest'
import { spec } from '@src/trace/spec/builder.ts'
const text = ${JSON.stringify(TRANSCRIPT)}
const holds = spec({ id: 'inner/holds', expectations: [{ id: 'ran', expect: { 'tool.called': { tool: 'Bash' } } }] })
const gaps = ${SPEC}
test('spec holds', () => { expect({ text }).toSatisfyTraceSpec(holds) })
test('spec gaps', () => { expect({ text }).toSatisfyTraceSpec(gaps) })
test('spec gaps, negated', () => { expect({ text }).not.toSatisfyTraceSpec(gaps) })
test('spec gaps, downgraded', () => { expect({ text }).toSatisfyTraceSpec(gaps, { advisory: ['never-edited', 'used-the-cache'] }) })
test('inline holds', () => { expect({ text }).toSatisfyExpectation({ 'tool.called': { tool: 'Edit', subject: { exact: 'file:a.ts' } } }) })
test('inline gaps', () => { expect({ text }).toSatisfyExpectation({ 'tool.called': { tool: 'Write' } }, { id: 'wrote', statement: 'a write happened' }) })
test('inline refused', () => { expect({ text }).toSatisfyExpectation({ turns: { count: {} } }) })
`

let suites: InnerTest[] = []
let matchers: InnerTest[] = []
let started = 0
let finished = 0

beforeAll(() => {
  started = Date.now()
  suites = runInnerVitest({ 'suites.test.ts': SUITES }).tests
  matchers = runInnerVitest({ 'matchers.test.ts': MATCHERS }, ['@src/public/setup.ts']).tests
  finished = Date.now()
}, 120_000)

const find = (list: InnerTest[], suite: string, name: string) => {
  const found = list.find((test) => test.suite === suite && test.name === name)
  if (!found) throw new Error(`no test ${suite} > ${name} in ${JSON.stringify(list.map((test) => `${test.suite} > ${test.name}`))}`)
  return found
}
const traceOf = (test: InnerTest) => (test.meta['vitestHarness'] as { trace?: TraceCheckMeta } | undefined)?.trace

describe('describeTraceSpec', () => {
  it('makes one test per expectation: ok passes, a gap fails quoting statement, note and events', () => {
    expect(suites.filter((test) => test.suite === 'fails').map((test) => [test.name, test.state])).toEqual([
      ['ran-the-suite', 'pass'],
      ['never-edited', 'fail'],
      ['cache-advisory', 'pass'],
      ['cheap-advisory', 'pass'],
      ['used-the-cache', 'fail'],
    ])
    // The call that broke the rule, read again from the transcript once the test failed.
    expect(find(suites, 'fails', 'never-edited').errors).toEqual(['gap never-edited (tool.absent) — nothing was edited\n  1 call(s) match Edit at event 3\n  cited IR events: 3\n    #3 call Edit {"file_path":"a.ts"} (line 4)'])
    // A redacted check quotes nothing of the transcript.
    expect(find(suites, 'redacted', 'never-edited').errors).toEqual(['gap never-edited (tool.absent) — nothing was edited\n  sha256:8991652c506d at event 3\n  cited IR events: 3'])
    expect(find(suites, 'fails', 'used-the-cache').errors).toEqual(['unknown used-the-cache (cache.used)\n  this transcript records no `usage`'])
  })

  it('annotates advisory gaps and unknowns instead of failing them', () => {
    expect(find(suites, 'fails', 'cheap-advisory').annotations).toEqual([{ type: 'advisory gap', message: 'advisory gap: cost = $0.2500, at most 0.01 at event 5' }])
    expect(find(suites, 'fails', 'cache-advisory').annotations).toEqual([{ type: 'advisory unknown', message: 'advisory unknown: this transcript records no `usage`' }])
  })

  it("reports a gating unknown as todo, never passed, with unknown: 'todo'", () => {
    const todo = find(suites, 'todo', 'used-the-cache')
    expect(todo.state).toBe('todo')
    expect(todo.note).toBe('todo — unknown: this transcript records no `usage`')
    expect(todo.errors).toEqual([])
    expect(find(suites, 'todo', 'never-edited').state).toBe('fail')
  })

  it('attaches the completed check to every expectation test, taken in the worker during the run', () => {
    const tests = suites.filter((test) => test.suite !== 'refused')
    for (const test of tests) {
      const trace = traceOf(test)
      expect(trace?.expectationId, test.name).toBe(test.name)
      expect(trace?.report.spec_id).toBe('inner/suite')
      expect(trace?.observedAt).toBeGreaterThanOrEqual(started)
      expect(trace?.observedAt).toBeLessThanOrEqual(finished)
    }
    const keys = new Set(tests.filter((test) => test.suite === 'fails').map((test) => traceOf(test)?.key))
    expect(keys.size).toBe(1)
    expect(traceOf(find(suites, 'fails', 'ran-the-suite'))?.report.verdict).toBe('gap')
  })

  it('fails every test with the refusal, and attaches nothing, when the transcript is not one', () => {
    const refused = suites.filter((test) => test.suite === 'refused')
    expect(refused).toHaveLength(5)
    for (const test of refused) {
      expect(test.state).toBe('fail')
      expect(test.errors[0]).toContain('TRACE-ADAPT-001 at line[1]: line 1 is not JSON')
      expect(traceOf(test)).toBeUndefined()
    }
  })
})

describe('the trace matchers', () => {
  it('pass and fail on the report’s verdict, quoting each failing gating row', () => {
    expect(find(matchers, '', 'spec holds').state).toBe('pass')
    const gaps = find(matchers, '', 'spec gaps')
    expect(gaps.state).toBe('fail')
    expect(gaps.errors[0]).toContain('expected the transcript to satisfy inner/suite (verdict gap):')
    expect(gaps.errors[0]).toContain('gap never-edited (tool.absent) — nothing was edited\n  1 call(s) match Edit at event 3\n  cited IR events: 3\n    #3 call Edit {"file_path":"a.ts"} (line 4)\n')
    expect(gaps.errors[0]).toContain('unknown used-the-cache (cache.used)')
    expect(find(matchers, '', 'spec gaps, negated').state).toBe('pass')
    expect(find(matchers, '', 'spec gaps, downgraded').state).toBe('pass')
  })

  it('checks one inline expectation, and refuses an invalid one with its code', () => {
    expect(find(matchers, '', 'inline holds').state).toBe('pass')
    const gaps = find(matchers, '', 'inline gaps')
    expect(gaps.errors).toEqual(['expected the transcript to satisfy:\ngap wrote (tool.called) — a write happened\n  Write called 0 time(s), at least 1'])
    expect(find(matchers, '', 'inline refused').errors[0]).toContain('TRACE-SPEC-005 at expectations[0].expect.turns.count')
  })

  it('attaches the check to the test that ran it', () => {
    expect(traceOf(find(matchers, '', 'spec holds'))).toMatchObject({ report: { spec_id: 'inner/holds', verdict: 'ok' } })
    expect(traceOf(find(matchers, '', 'spec holds'))?.expectationId).toBeUndefined()
    expect(traceOf(find(matchers, '', 'inline gaps'))).toMatchObject({ expectationId: 'wrote', report: { spec_id: 'inline/expectation' } })
  })
})
