import type { AssistantRequest, IrEvent } from '../../ir/types.js'
import { describeCount, describeRange, rangeHolds } from '../../spec/bounds.js'
import type { CountBound, RangeBound, Trend, UsageField } from '../../spec/model.js'
import { rustFixed } from '../../rust-format.js'
import type { Accumulator, CheckContext } from '../accumulator.js'
import { fieldAbsent, gap, ok, undecidable, type Outcome, type UnknownReason } from '../outcome.js'
import { notClosedReason, provenClosed } from '../closure.js'
import { countVerdict } from '../count-verdict.js'

/**
 * The request family: how many API requests, and how per-request usage moved. These hold one
 * entry per distinct request (an id seen, a series entry) — the one place a check's memory grows
 * with the run, and only when a specification asks one of these questions.
 */

/** How many records of the stream said their usage sums several requests (0 for every format that marks each). */
function unmarkedRecords({ facts }: CheckContext): number {
  return facts.end?.requestsUnmarked ?? 0
}

/** The subagents whose last request the stream may not show (`subagent_requests_unseen` warnings). */
function subagentsRequesting({ facts }: CheckContext): number {
  return facts.end?.subagentRequestsUnseen ?? 0
}

/**
 * A count of what is in the transcript itself, cited as a whole-run fact. Where the record sums
 * usage over several requests, each record counted is one request or more; where `subagents`
 * subagents' last requests may be missing, each may add one. The count is then a lower bound, and
 * a bound it cannot settle is `unk` rather than a guess.
 */
function wholeRunCount(what: string, bound: CountBound, observed: number, context: CheckContext, subagents = 0): Outcome {
  const unmarked = unmarkedRecords(context) > 0
  const unseen = !unmarked && subagents > 0
  const note = unmarked
    ? `at least ${observed} ${what} (each usage record sums one request or more), ${describeCount(bound)}`
    : unseen
      ? `at least ${observed} ${what} (${subagents === 1 ? 'a subagent' : `${subagents} subagents`} may have made one more each), ${describeCount(bound)}`
      : `${observed} ${what}, ${describeCount(bound)}`
  const undecided = (): UnknownReason => (unmarked ? { reason: 'requests_unmarked', records: observed } : { reason: 'subagent_requests_unseen', subagents })
  return countVerdict({ bound, observed, lowerBound: unmarked || unseen, undecided, end: context.facts.end }, [], note)
}

/** Distinct request ids across assistant records; an unlabelled record is its own request (a subagent's last may be missing). */
export function apiRequests(bound: CountBound): Accumulator {
  const identified = new Set<string>()
  let anonymous = 0
  return {
    families: [],
    wantsRequests: true,
    request(request) {
      if (request.requestId === null) anonymous += 1
      else identified.add(request.requestId)
    },
    finish: (context) => wholeRunCount('api requests', bound, identified.size + anonymous, context, subagentsRequesting(context)),
  }
}

export function eventsAssistant(bound: CountBound): Accumulator {
  let records = 0
  return {
    families: [],
    wantsRequests: true,
    request() {
      records += 1
    },
    finish: (context) => wholeRunCount('assistant events', bound, records, context),
  }
}

interface SeriesEntry {
  request: AssistantRequest
  /** The IR events on the request's own line (the stream-json join). */
  lineEvents: number[]
}

const FIELD_OF: Record<UsageField, keyof AssistantRequest> = {
  input_tokens: 'inputTokens',
  output_tokens: 'outputTokens',
  cache_read_input_tokens: 'cacheReadInputTokens',
  cache_creation_input_tokens: 'cacheCreationInputTokens',
}

/**
 * The per-request series: records sharing an id collapse to one entry at the first one's place,
 * the last record supplying the values (a streamed request restates its usage as it goes).
 */
class RequestSeries {
  readonly entries: SeriesEntry[] = []
  private readonly positions = new Map<string, number>()
  private readonly textsById = new Map<string, number[]>()
  private current: SeriesEntry | null = null

  request(request: AssistantRequest): void {
    const entry: SeriesEntry = { request, lineEvents: [] }
    this.current = entry
    const id = request.requestId
    const at = id === null ? undefined : this.positions.get(id)
    if (at !== undefined) {
      this.entries[at] = entry
      return
    }
    if (id !== null) this.positions.set(id, this.entries.length)
    this.entries.push(entry)
  }

  event(event: IrEvent): void {
    if (this.current !== null && event.sourceLine === this.current.request.sourceLine) this.current.lineEvents.push(event.index)
    if (event.family === 'assistant_text' && event.requestId !== null) {
      const list = this.textsById.get(event.requestId)
      if (list) list.push(event.index)
      else this.textsById.set(event.requestId, [event.index])
    }
  }

  /** Where an entry is cited: its line's events, else its id's text, else what the reader attributed. */
  eventsOf(entry: SeriesEntry): number[] {
    if (entry.lineEvents.length > 0) return entry.lineEvents
    const id = entry.request.requestId
    const byId = id === null ? undefined : this.textsById.get(id)
    if (byId && byId.length > 0) return byId
    return entry.request.events
  }

  /** Each entry and its value, or the `unk` when any entry lacks the field (or there is none). */
  values(field: UsageField): { entry: SeriesEntry; value: number }[] | Outcome {
    if (this.entries.length === 0) return undecidable({ reason: 'no_requests' })
    const out: { entry: SeriesEntry; value: number }[] = []
    for (const entry of this.entries) {
      const value = entry.request[FIELD_OF[field]] as number | null
      if (value === null) return fieldAbsent(`requests[].${field}`)
      out.push({ entry, value })
    }
    return out
  }
}

/**
 * Where the series may be missing requests, the `unk` saying why, else null: a stream not proven
 * closed may have left some unwritten, and a subagent's last request is not streamed. A claim about
 * every request, or a share of their total, needs them all.
 */
function requestsMissing(context: CheckContext): Outcome | null {
  const end = context.facts.end
  if (!provenClosed(end)) return undecidable(notClosedReason(end))
  const subagents = subagentsRequesting(context)
  return subagents > 0 ? undecidable({ reason: 'subagent_requests_unseen', subagents }) : null
}

function seriesAccumulator(finish: (series: RequestSeries, context: CheckContext) => Outcome): Accumulator {
  const series = new RequestSeries()
  return {
    families: ['assistant_text', 'assistant_thinking', 'tool_call', 'tool_result', 'session_start', 'synthetic_injection', 'thinking_estimate', 'rate_limit', 'run_outcome', 'opaque'],
    wantsRequests: true,
    wantsRequestEvents: true,
    event: (event) => series.event(event),
    request: (request) => series.request(request),
    // A series of sums is no series of requests: where the record sums usage, no per-request question has an answer.
    finish: (context) => (unmarkedRecords(context) > 0 ? undecidable({ reason: 'requests_unmarked', records: series.entries.length }) : finish(series, context)),
  }
}

const holdsPair = (trend: Trend, previous: number, current: number) => (trend === 'non_decreasing' ? current >= previous : current <= previous)

/**
 * A usage field moves one way across the requests. A wrong-way pair is a gap naming it; a series
 * that never moved is `unk` (consistent with both directions); one request holds vacuously.
 */
export function usageTrend(field: UsageField, trend: Trend): Accumulator {
  return seriesAccumulator((series, context) => {
    const values = series.values(field)
    if (!Array.isArray(values)) return values
    const shape = trend === 'non_decreasing' ? 'non-decreasing' : 'non-increasing'
    const last = values[values.length - 1] as { entry: SeriesEntry; value: number }
    // Once proven, a wrong-way pair stays (it is one in any series that holds this one); an ok is
    // a claim about every request, and a request missing from the series may have moved the other way.
    const unproven = requestsMissing(context)
    if (values.length === 1) return unproven ?? ok(series.eventsOf(last.entry), `one request, ${field} = ${last.value}: a sequence of one is ${shape} vacuously`)
    let moved = false
    for (let index = 0; index + 1 < values.length; index++) {
      const previous = (values[index] as { value: number }).value
      const current = values[index + 1] as { entry: SeriesEntry; value: number }
      if (!holdsPair(trend, previous, current.value)) {
        return gap(
          series.eventsOf(current.entry),
          `${field} is not ${shape} across ${values.length} requests: request ${index + 1} is ${current.value} after ${previous} at request ${index}`,
        )
      }
      moved ||= previous !== current.value
    }
    if (!moved) return undecidable({ reason: 'series_did_not_move', field: `requests[].${field}`, requests: values.length })
    if (unproven) return unproven
    const direction = trend === 'non_decreasing' ? 'up' : 'down'
    const first = (values[0] as { value: number }).value
    return ok(series.eventsOf(last.entry), `${field} moved ${direction} across ${values.length} requests and never the other way, ${first} to ${last.value}`)
  })
}

/** No single request takes more than a share of the series' own total. */
export function usageShare(field: UsageField, bound: RangeBound): Accumulator {
  return seriesAccumulator((series, context) => {
    const values = series.values(field)
    if (!Array.isArray(values)) return values
    // A request missing from the series moves a share either way (a larger peak, or a larger total): neither side is proven.
    const missing = requestsMissing(context)
    if (missing !== null) return missing
    const total = values.reduce((sum, { value }) => sum + value, 0)
    if (total === 0) return undecidable({ reason: 'ratio_undefined', denominator: `requests[].${field} summed across every request` })
    let peakAt = 0
    values.forEach(({ value }, index) => {
      if (value > (values[peakAt] as { value: number }).value) peakAt = index
    })
    const peak = values[peakAt] as { entry: SeriesEntry; value: number }
    const share = peak.value / total
    const note = `the largest single request's ${field} share is ${rustFixed(share, 5)} = ${peak.value} / ${total} at request ${peakAt} of ${values.length}, ${describeRange(bound)}`
    return (rangeHolds(bound, share) ? ok : gap)(series.eventsOf(peak.entry), note)
  })
}
