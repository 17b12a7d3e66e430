import { resolve } from 'node:path'
import { TestRunner } from 'vitest'
import type { ExpectationRow, TraceReport } from '../src/trace/report-types.js'
import { checkAnySync, resolveSpec, transcriptPath, type TraceSpecInput, type TraceTranscript } from '../src/trace/check/input.js'
import { parseSpecValue } from '../src/trace/spec/read.js'
import type { ExpectDocument } from '../src/trace/spec/schema.js'
import { SPEC_FORMAT, type OnUnknown, type Severity } from '../src/trace/spec/model.js'
import { TraceSpecError } from '../src/trace/errors.js'
import { attachTraceMeta, traceCheckKey } from '../src/vitest/trace-meta.js'
import { describeRow } from '../src/vitest/trace-failure.js'
import { citedEventLinesSync } from '../src/vitest/cited-events.js'
import { citedEvents } from '../src/report/check-view.js'
import { asRefusal, withCleanStack, type RefusedInput } from '../src/vitest/refusal.js'

/** Options of `toSatisfyTraceSpec`. */
export interface TraceSpecMatcherOptions {
  /** Expectation ids downgraded to advisory for this check. Default: none. */
  advisory?: readonly string[]
}

/** Options of `toSatisfyExpectation`: the row's own keys besides `expect`. */
export interface InlineExpectationOptions {
  /** The row's id in the report. Default: `inline`. */
  id?: string
  statement?: string
  /** Default: `gate`. */
  severity?: Severity
  /** Default: `unknown`. */
  on_unknown?: OnUnknown
}

/** What a matcher returns: Vitest draws the diff from `actual`/`expected` and handles `.not`. */
export interface MatcherResult {
  pass: boolean
  message: () => string
  actual?: unknown
  expected?: unknown
}

/** Runs a read, turning its failure into the CLI's coded refusal (no stack into this package). */
function refusing<T>(what: RefusedInput, shownAs: string | undefined, read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw asRefusal(error, what, shownAs)
  }
}

/** Records the completed check on the running test, for the evidence reporter. */
function attach(report: TraceReport, spec: { path?: string }, transcript: TraceTranscript, expectationId?: string): void {
  const task = TestRunner.getCurrentTest()
  if (!task) return
  const path = transcriptPath(transcript)
  attachTraceMeta(task.meta, {
    key: traceCheckKey(report),
    report,
    observedAt: Date.now(),
    ...(expectationId === undefined ? {} : { expectationId }),
    ...(spec.path === undefined ? {} : { specPath: resolve(spec.path) }),
    ...(path === undefined ? {} : { transcriptPath: resolve(path) }),
  })
}

/** The gating rows that did not hold, each quoting its statement, note and cited events. */
function failingRows(report: TraceReport): ExpectationRow[] {
  return report.expectations.filter((row) => row.severity === 'gate' && row.verdict !== 'ok')
}

const verdicts = (report: TraceReport) => Object.fromEntries(report.expectations.map((row) => [row.id, row.verdict]))

export const traceMatchers = {
  /**
   * Passes when the transcript satisfies every gating expectation of the specification (the
   * report's verdict is `ok`). A gap or a gating unknown fails, quoting each row.
   *
   * @example
   * expect('runs/last.jsonl').toSatisfyTraceSpec('specs/development.trace.yaml')
   */
  toSatisfyTraceSpec(received: TraceTranscript, specInput: TraceSpecInput, options: TraceSpecMatcherOptions = {}): MatcherResult {
    const resolved = refusing('specification', undefined, () => resolveSpec(specInput))
    const report = refusing('transcript', transcriptPath(received), () => checkAnySync(resolved.spec, received, { advisory: options.advisory ?? [] }))
    attach(report, resolved, received)
    const pass = report.verdict === 'ok'
    return {
      pass,
      message: () =>
        pass
          ? `expected the transcript not to satisfy ${report.spec_id}, and every gating expectation held`
          : `expected the transcript to satisfy ${report.spec_id} (verdict ${report.verdict}):\n${failingRows(report).map((row) => describeRow(row, citedEventLinesSync(received, citedEvents(row)))).join('\n')}`,
      actual: verdicts(report),
      expected: Object.fromEntries(report.expectations.filter((row) => row.severity === 'gate').map((row) => [row.id, 'ok'])),
    }
  },

  /**
   * Passes when one inline expectation holds: `expect(transcript).toSatisfyExpectation({
   * 'tool.called': { tool: 'Bash' } })`. The row is validated as a file's would be; a gap or an
   * unknown fails (an unknown becomes a gap with `on_unknown: 'gap'`).
   */
  toSatisfyExpectation(received: TraceTranscript, expectation: ExpectDocument, options: InlineExpectationOptions = {}): MatcherResult {
    const id = options.id ?? 'inline'
    const row = { id, expect: expectation, ...(options.statement === undefined ? {} : { statement: options.statement }), ...(options.severity ? { severity: options.severity } : {}), ...(options.on_unknown ? { on_unknown: options.on_unknown } : {}) }
    const read = parseSpecValue({ format: SPEC_FORMAT, id: 'inline/expectation', expectations: [row] })
    if (!read.ok) throw withCleanStack(new TraceSpecError(read.refusals, 'the inline expectation'))
    const report = refusing('transcript', transcriptPath(received), () => checkAnySync(read.spec, received))
    attach(report, {}, received, id)
    const result = report.expectations[0] as ExpectationRow
    const pass = result.verdict === 'ok'
    return {
      pass,
      message: () => `expected the transcript ${pass ? 'not ' : ''}to satisfy:\n${describeRow(result, citedEventLinesSync(received, citedEvents(result)))}`,
      actual: result.outcome,
      expected: { outcome: 'ok' },
    }
  },
}

declare module 'vitest' {
  interface Matchers<T = any> {
    /** The transcript satisfies every gating expectation of the `trace-spec/1` specification. */
    toSatisfyTraceSpec(spec: TraceSpecInput, options?: TraceSpecMatcherOptions): T
    /** The transcript satisfies one inline expectation (`{ 'tool.called': {…} }`). */
    toSatisfyExpectation(expectation: ExpectDocument, options?: InlineExpectationOptions): T
  }
}
