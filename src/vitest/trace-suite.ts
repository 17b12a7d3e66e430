import { resolve } from 'node:path'
import { beforeAll, describe, test } from 'vitest'
import { checkAny, resolveSpec, transcriptLabel, transcriptPath, type TraceSpecInput, type TraceTranscript } from '../trace/check/input.js'
import { describeOutcome, type Outcome } from '../trace/check/outcome.js'
import type { ExpectationRow, TraceReport } from '../trace/report-types.js'
import type { TraceCheckMeta } from './meta.js'
import { attachTraceMeta, traceCheckKey } from './trace-meta.js'
import { citedEvents } from '../report/check-view.js'
import { citedEventLines } from './cited-events.js'
import { TraceExpectationError } from './trace-failure.js'
import { fleetTranscripts, type TraceFleet } from './trace-fleet.js'
import { asRefusal, withCleanStack } from './refusal.js'
import { annotateTracePage, tracePageFor, type TracePage } from './trace-page.js'

/** How a trace suite runs. */
export interface TraceSuiteOptions {
  /** The suite's title. Default: `<spec id> against <transcript file>`. */
  name?: string
  /** Expectation ids downgraded to advisory for this run (refused when not declared). Default: none. */
  advisory?: readonly string[]
  /**
   * What a gating row the transcript cannot decide does: `'fail'` the test, or mark it `'todo'`
   * (its result state is `todo`, never passed; the default reporter prints it with the reason).
   * Default: `'fail'`.
   */
  unknown?: 'fail' | 'todo'
  /** Replace every note with a digest of it. Default: false. */
  redact?: boolean
  /** Lines longer than this are refused. Default: 8 MiB. */
  maxLineBytes?: number
}

type Checked = { ok: true; report: TraceReport; meta: Omit<TraceCheckMeta, 'expectationId'> } | { ok: false; error: unknown }

/** The specification, or its refusal as the CLI words it (code, file, sentence) with no stack into this package. */
function resolveSpecOrRefuse(input: TraceSpecInput): ReturnType<typeof resolveSpec> {
  try {
    return resolveSpec(input)
  } catch (error) {
    throw asRefusal(error, 'specification')
  }
}

/** The fleet a suite names, or its refusal (`VH_FLEET_EMPTY`) as the CLI words it. */
function fleetOrRefuse(transcript: TraceTranscript | TraceFleet): ReturnType<typeof fleetTranscripts> {
  try {
    return fleetTranscripts(transcript)
  } catch (error) {
    throw asRefusal(error, 'transcript')
  }
}

/**
 * One Vitest test per expectation of a `trace-spec/1` specification, judged against a transcript.
 * The specification is read when the suite is collected (its ids name the tests); the transcript is
 * checked once, in one pass, when the suite runs. A gap fails its test with the statement, the
 * note and the cited events; an unknown fails unless the row is advisory or `unknown: 'todo'`;
 * an advisory gap or unknown is annotated, not failed. Every test of a completed check carries the
 * report in `task.meta.vitestHarness.trace` for the evidence reporter.
 *
 * @example
 * describeTraceSpec('specs/development.trace.yaml', 'runs/last.jsonl')
 * describeTraceSpec(spec({ id: 'smoke', expectations: [...] }), { events: emissions }, { unknown: 'todo' })
 * // A fleet: one describe per transcript the glob names (see `fleetTranscripts`).
 * describeTraceSpec('specs/development.trace.yaml', 'runs/**\/*.jsonl')
 */
export function describeTraceSpec(specInput: TraceSpecInput, transcript: TraceTranscript | TraceFleet, options: TraceSuiteOptions = {}): void {
  const fleet = fleetOrRefuse(transcript)
  if (fleet !== undefined) {
    const { spec } = resolveSpecOrRefuse(specInput)
    const checked = typeof specInput === 'string' || specInput instanceof URL ? specInput : spec
    for (const { path, label } of fleet) describeTraceSpec(checked, path, { ...options, name: `${options.name ?? spec.id} against ${label}` })
    return
  }
  if (typeof transcript === 'object' && !(transcript instanceof URL) && 'glob' in transcript) throw new TypeError('unreachable: a fleet is expanded above')
  const { spec, path: specPath } = resolveSpecOrRefuse(specInput)
  const path = transcriptPath(transcript)
  const title = options.name ?? `${spec.id} against ${transcriptLabel(transcript)}`
  describe(title, () => {
    let checked: Checked = { ok: false, error: new Error('the trace check did not run') }
    let page: TracePage

    beforeAll(async ({}, suite) => {
      try {
        const report = await checkAny(spec, transcript, {
          advisory: options.advisory ?? [],
          redact: options.redact ?? false,
          ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
        })
        const meta: Omit<TraceCheckMeta, 'expectationId'> = {
          key: traceCheckKey(report),
          report,
          observedAt: Date.now(),
          // Absolute here (as the worker read them); the reporter writes them relative to the root.
          ...(specPath === undefined ? {} : { specPath: resolve(specPath) }),
          ...(path === undefined ? {} : { transcriptPath: resolve(path) }),
        }
        checked = { ok: true, report, meta }
        page = await tracePageFor(meta.key, report, transcript, title)
      } catch (error) {
        checked = { ok: false, error: asRefusal(error, 'transcript', path) }
        return
      }
      if (options.unknown !== 'todo') return
      // Vitest has no runtime todo: a task marked here before it runs is reported `todo`, never passed.
      for (const task of suite.tasks) {
        const row = checked.report.expectations.find((candidate) => candidate.id === task.name)
        if (task.type !== 'test' || !row || row.verdict !== 'unknown' || row.severity !== 'gate') continue
        task.mode = 'todo'
        // `note` is what reporters print beside a skipped or todo test (the field `context.skip(note)` sets).
        task.result = Object.assign({ state: 'todo' as const }, { note: `todo — unknown: ${describeOutcome(row.outcome as Outcome)}` })
        attachTraceMeta(task.meta, { ...checked.meta, expectationId: row.id })
      }
    })

    for (const expectation of spec.expectations) {
      test(expectation.id, async (context) => {
        if (!checked.ok) throw checked.error
        const row = checked.report.expectations.find((candidate) => candidate.id === expectation.id) as ExpectationRow
        attachTraceMeta(context.task.meta, { ...checked.meta, expectationId: row.id })
        await annotateTracePage(context, page)
        if (row.verdict === 'ok') return
        if (row.severity === 'advisory') {
          // Advisory rows are reported and never gate: annotated, not failed.
          await context.annotate(`advisory ${row.verdict}: ${describeOutcome(row.outcome as Outcome)}`, `advisory ${row.verdict}`)
          return
        }
        // Which calls broke the rule, read again now it failed; a redacted check quotes nothing.
        const spelt = options.redact === true ? [] : await citedEventLines(transcript, citedEvents(row), options.maxLineBytes)
        // A verdict, not a bug: the row says everything; frames into this package would not.
        throw withCleanStack(new TraceExpectationError(row, spelt))
      })
    }
  })
}
