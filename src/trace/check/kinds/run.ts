import type { IrEvent, ModelUsage, RunOutcome, RunUsage } from '../../ir/types.js'
import { countHolds, decideCount, decideRange, describeCount, describeRange, rangeHolds, type Decision } from '../../spec/bounds.js'
import { describeMatcher, matchesText } from '../../spec/matcher.js'
import type { CountBound, FieldMatcher, KindOf, RangeBound } from '../../spec/model.js'
import { rustDisplayF64, rustFixed, utf8Length } from '../../rust-format.js'
import { fromFacts, type Accumulator, type CheckContext } from '../accumulator.js'
import { isOutcome } from '../context.js'
import { fieldAbsent, gap, ok, undecidable, type Outcome, type UnknownReason } from '../outcome.js'
import { isCeiling, notClosedReason } from '../closure.js'

/**
 * The run family: kinds read off the terminal record (every one for `result`; any other is
 * undecided over several, see `terminal`), the rate-limit state, the thinking estimate and the
 * final text.
 */

function withTerminal(context: CheckContext, decide: (at: number, outcome: RunOutcome) => Outcome): Outcome {
  const terminal = context.facts.terminal()
  return isOutcome(terminal) ? terminal : decide(terminal.index, terminal.outcome)
}

function withUsage(context: CheckContext, decide: (at: number, usage: RunUsage) => Outcome): Outcome {
  return withTerminal(context, (at, outcome) => (outcome.usage === null ? fieldAbsent('usage') : decide(at, outcome.usage)))
}

/**
 * Whether the run's totals (tokens, cost, API time, denials) may exceed what its terminal record
 * says: the stream says subagents ran apart from it, in their own files, and whether the record
 * counts their spend it does not say (Harbor's terminus-2 counts its summarizing subagents in one
 * file and not in the first segment of a split one). Each total is then a lower bound on the run's.
 */
function totalsMayGrow(context: CheckContext): boolean {
  return (context.facts.end?.subagentsUnseen ?? 0) > 0
}

/**
 * Whether a total read off the terminal record's `usage` may exceed it: work ran apart
 * (`totalsMayGrow`), or subagents made requests the record's usage leaves out (Claude Code's
 * `result`, whose `modelUsage` and cost count them: `subagent_usage_apart` warnings).
 */
function usageMayGrow(context: CheckContext): boolean {
  return totalsMayGrow(context) || (context.facts.end?.subagentUsageApart ?? 0) > 0
}

/** Why a total may exceed what the record says: the work the stream says ran apart, else the subagents its usage leaves out. */
function apartReason(context: CheckContext): UnknownReason {
  const end = context.facts.end
  if (!totalsMayGrow(context) && (end?.subagentUsageApart ?? 0) > 0) return { reason: 'subagent_usage_apart', subagents: end?.subagentUsageApart ?? 0 }
  return notClosedReason(end)
}

/** A decision on a total as ok or gap citing `at`, or unknown for the work the record may leave out (see `apartReason`). */
function decidedTotal(context: CheckContext, decision: Decision, at: number, note: string): Outcome {
  if (decision === 'undecided') return undecidable(apartReason(context))
  return (decision === 'holds' ? ok : gap)([at], note)
}

/** A whole number read off the run, against a bound; a field the record lacks is unknown. */
function countOutcome(field: string, bound: CountBound, at: number, value: number | null): Outcome {
  if (value === null) return fieldAbsent(field)
  return (countHolds(bound, value) ? ok : gap)([at], `${field} = ${value}, ${describeCount(bound)}`)
}

/** A run total read off the run, against a bound: a lower bound where work ran apart (see `totalsMayGrow`), or where `mayGrow` says. */
function totalOutcome(context: CheckContext, field: string, bound: CountBound, at: number, value: number | null, mayGrow = totalsMayGrow(context)): Outcome {
  if (value === null) return fieldAbsent(field)
  return decidedTotal(context, decideCount(bound, value, mayGrow), at, `${field} = ${value}, ${describeCount(bound)}`)
}

/** A whole number on the terminal record, against a bound. */
export function outcomeCount(field: string, bound: CountBound, read: (outcome: RunOutcome) => number | null): Accumulator {
  return fromFacts((context) => withTerminal(context, (at, outcome) => countOutcome(field, bound, at, read(outcome))))
}

/** A total on the terminal record that work run apart from the stream adds to (denials, API time), against a bound. */
export function outcomeTotal(field: string, bound: CountBound, read: (outcome: RunOutcome) => number | null): Accumulator {
  return fromFacts((context) => withTerminal(context, (at, outcome) => totalOutcome(context, field, bound, at, read(outcome))))
}

/** A total on the terminal record's aggregate usage, against a bound: a lower bound where the usage may leave work out (see `usageMayGrow`). */
export function usageCount(field: string, bound: CountBound, read: (usage: RunUsage) => number | null): Accumulator {
  return fromFacts((context) => withUsage(context, (at, usage) => totalOutcome(context, field, bound, at, read(usage), usageMayGrow(context))))
}

/** A text on the terminal record's aggregate usage, compared for equality. */
export function usageText(field: string, expected: string, read: (usage: RunUsage) => string | null): Accumulator {
  return fromFacts((context) =>
    withUsage(context, (at, usage) => {
      const actual = read(usage)
      if (actual === null) return fieldAbsent(field)
      return actual === expected ? ok([at], `${field} = ${actual}`) : gap([at], `${field} = ${actual}, expected ${expected}`)
    }),
  )
}

/** One terminal record against the declared fields. */
function oneRunResult(at: number, run: RunOutcome, kind: KindOf<'result'>): Outcome {
  const satisfied: string[] = []
  const disagreed: string[] = []
  if (kind.is_error !== null) {
    if (run.isError === null) return fieldAbsent('is_error')
    if (run.isError === kind.is_error) satisfied.push(`is_error=${run.isError}`)
    else disagreed.push(`is_error=${run.isError}, expected ${kind.is_error}`)
  }
  for (const [expected, actual, field] of [
    [kind.subtype, run.subtype, 'subtype'],
    [kind.stop_reason, run.stopReason, 'stop_reason'],
    [kind.terminal_reason, run.terminalReason, 'terminal_reason'],
  ] as const) {
    if (expected === null) continue
    if (actual === null) return fieldAbsent(field)
    if (actual === expected) satisfied.push(`${field}=${actual}`)
    else disagreed.push(`${field}=${actual}, expected ${expected}`)
  }
  const status = kind.api_error_status
  if (status !== null) {
    const actual = run.apiErrorStatus
    if (status.api_error_status === 'absent') {
      if (actual === null) satisfied.push('api_error_status absent')
      else disagreed.push(`api_error_status=${actual}, expected none`)
    } else if (actual === null) disagreed.push(`api_error_status absent, expected ${status.value}`)
    else if (actual === status.value) satisfied.push(`api_error_status=${actual}`)
    else disagreed.push(`api_error_status=${actual}, expected ${status.value}`)
  }
  return disagreed.length === 0 ? ok([at], satisfied.join(', ')) : gap([at], disagreed.join(', '))
}

/**
 * Every session's terminal record matches (a driven run concatenates sessions). The first session
 * that does not decides; one the account's rate limit rejected inside its own span is `unk`. A
 * session that opened after the last terminal record has none of its own: how it ended is unknown,
 * so the rows it could break are not all held.
 */
export function runResult(kind: KindOf<'result'>): Accumulator {
  let decided: Outcome | null = null
  let sessions = 0
  let lastHeld: { at: number; note: string } | null = null
  let opened = 0
  let rejection: { at: number; window: string | null } | null = null
  return {
    families: ['run_outcome', 'rate_limit'],
    facts: ['session_start'],
    event(event: IrEvent) {
      if (decided !== null) return
      if (event.family === 'rate_limit') {
        if (rejection === null && event.state.status === 'rejected' && event.index > opened) rejection = { at: event.index, window: event.state.limitType }
        return
      }
      if (event.family !== 'run_outcome') return
      sessions += 1
      const at = event.index
      const outcome = oneRunResult(at, event.outcome, kind)
      const cut = rejection
      opened = at
      rejection = null
      if (outcome.outcome === 'ok') lastHeld = { at, note: outcome.note }
      else if (outcome.outcome === 'gap') {
        decided = cut === null ? outcome : undecidable({ reason: 'run_cut_by_rate_limit', outcome_event: at, limit_event: cut.at, window: cut.window })
      } else decided = outcome
    },
    finish({ facts }) {
      if (sessions === 0) return undecidable({ reason: 'no_run_outcome' })
      if (decided !== null) return decided
      if (facts.openedAfter(opened)) return undecidable({ reason: 'no_run_outcome' })
      const held = lastHeld as { at: number; note: string }
      return ok([held.at], sessions === 1 ? held.note : `${sessions} session(s), each ${held.note}`)
    },
  }
}

/**
 * Tools a harness calls to end its run, after the text that answers: OpenHands' `finish` (its
 * message is that text) and terminus-2's `mark_task_complete` (Harbor's completion marker). Any
 * other call after the last text means the run went on working after it.
 */
const RUN_ENDING_TOOLS: ReadonlySet<string> = new Set(['finish', 'mark_task_complete'])

/** The final assistant text matches; the note names the matcher, never the text. */
export function textMatches(matcher: FieldMatcher): Accumulator {
  // The calls made since the last text: the run's last words came before them, so it ended
  // working, not answering (a turn cut short at a tool call, a run timed out mid-command).
  let callsAfterText: number[] = []
  return {
    families: ['assistant_text', 'tool_call'],
    facts: ['assistant_text', 'run_outcome', 'session_start'],
    event(event) {
      // A subagent's words answer its caller, not the run: only the run's own text starts afresh.
      if (event.family === 'assistant_text') {
        if (event.parentCallId === null) callsAfterText = []
      } else if (event.family === 'tool_call' && !RUN_ENDING_TOOLS.has(event.call.name)) callsAfterText.push(event.index)
    },
    finish({ facts }) {
      const last = facts.finalText()
      if (last === null) return undecidable({ reason: 'no_final_text' })
      const lastPiece = last.indices[last.indices.length - 1] as number
      // The last text written is the run's final answer only where the run ended after it: a terminal
      // record follows it, or the stream is proven closed. Else the run may have answered again.
      if (!facts.endedAfter(lastPiece, last.timestamp)) return undecidable(notClosedReason(facts.end))
      if (callsAfterText.length > 0) return undecidable({ reason: 'calls_after_last_text', text_event: lastPiece, call_events: callsAfterText })
      if (matchesText(matcher, last.text)) return ok([...last.indices], `the final assistant text (${utf8Length(last.text)} chars) ${describeMatcher(matcher)}`)
      return gap([...last.indices], `the final assistant text does not match ${describeMatcher(matcher)}`)
    },
  }
}

export function thinkingEstimated(bound: CountBound): Accumulator {
  return fromFacts(({ facts }) => {
    const last = facts.lastEstimateOf()
    if (last === null) return undecidable({ reason: 'no_thinking_estimate' })
    const holds = countHolds(bound, last.tokens)
    // The estimate only grows: a ceiling that holds is the run's only where the run ended after it.
    if (holds && isCeiling(bound) && !facts.endedAfter(last.index, last.timestamp)) return undecidable(notClosedReason(facts.end))
    return (holds ? ok : gap)([last.index], `last thinking estimate ${last.tokens}, ${describeCount(bound)}`)
  }, ['thinking_estimate', 'run_outcome', 'session_start'])
}

type RateLimitKind = KindOf<'rate_limit.status' | 'rate_limit.overage' | 'rate_limit.utilization'>

/** The last rate-limit state: status in an allowed set, overage, utilization. */
export function rateLimit(kind: RateLimitKind): Accumulator {
  return fromFacts(({ facts }) => {
    const last = facts.lastRateLimitOf()
    if (last === null) return undecidable({ reason: 'no_rate_limit_event' })
    // The last state written is the run's last only where the run ended after it; a stream cut short may have moved on.
    if (!facts.endedAfter(last.index, last.timestamp)) return undecidable(notClosedReason(facts.end))
    const at = last.index
    const state = last.state
    switch (kind.expect) {
      case 'rate_limit.status':
        if (state.status === null) return fieldAbsent('rate_limit.status')
        return kind.allowed.includes(state.status) ? ok([at], `status = ${state.status}`) : gap([at], `status = ${state.status}, allowed ${kind.allowed.join(', ')}`)
      case 'rate_limit.overage':
        if (state.isUsingOverage === null) return fieldAbsent('rate_limit.is_using_overage')
        return state.isUsingOverage === kind.equals
          ? ok([at], `is_using_overage = ${state.isUsingOverage}`)
          : gap([at], `is_using_overage = ${state.isUsingOverage}, expected ${kind.equals}`)
      case 'rate_limit.utilization': {
        if (state.utilization === null) return fieldAbsent('rate_limit.utilization')
        const note = `utilization = ${rustDisplayF64(state.utilization)}, ${describeRange(kind.utilization)}`
        return (rangeHolds(kind.utilization, state.utilization) ? ok : gap)([at], note)
      }
    }
  }, ['rate_limit', 'run_outcome', 'session_start'])
}

type Token = 'input' | 'output' | 'total' | 'cache_read' | 'cache_created'

function tokenOf(usage: { inputTokens: number | null; outputTokens: number | null; cacheReadInputTokens: number | null; cacheCreationInputTokens: number | null }, which: Token): number | null {
  switch (which) {
    case 'input':
      return usage.inputTokens
    case 'output':
      return usage.outputTokens
    case 'total':
      return usage.inputTokens === null || usage.outputTokens === null ? null : usage.inputTokens + usage.outputTokens
    case 'cache_read':
      return usage.cacheReadInputTokens
    case 'cache_created':
      return usage.cacheCreationInputTokens
  }
}

/** One model's slice of the run's usage; a record without the split, or a model the run never used, is `unk`. */
function modelSlice(run: RunOutcome, model: string): ModelUsage | Outcome {
  if (run.modelUsage === null) return fieldAbsent('model_usage')
  const scoped = run.modelUsage[model]
  if (scoped === undefined || !Object.hasOwn(run.modelUsage, model)) return undecidable({ reason: 'model_not_used', model })
  return scoped
}

/** A token quantity, run-wide or for one model; a model the run never used is `unk`. */
export function tokens(field: string, bound: CountBound, model: string | null, which: Token): Accumulator {
  return fromFacts((context) =>
    withTerminal(context, (at, run) => {
      let value: number | null
      if (model !== null) {
        const scoped = modelSlice(run, model)
        if (isOutcome(scoped)) return scoped
        value = tokenOf(scoped, which)
      } else {
        if (run.usage === null) return fieldAbsent('usage')
        value = tokenOf(run.usage, which)
      }
      if (value === null) return fieldAbsent(field)
      const scope = model === null ? '' : ` for ${model}`
      // A model's figures (model_usage) count every agent's requests; the run-wide usage may not.
      const mayGrow = model === null ? usageMayGrow(context) : totalsMayGrow(context)
      return decidedTotal(context, decideCount(bound, value, mayGrow), at, `${field}${scope} = ${value}, ${describeCount(bound)}`)
    }),
  )
}

/** What the run cost, run-wide or for one model. */
export function costTotal(bound: RangeBound, model: string | null): Accumulator {
  return fromFacts((context) =>
    withTerminal(context, (at, run) => {
      let value: number | null
      if (model !== null) {
        const scoped = modelSlice(run, model)
        if (isOutcome(scoped)) return scoped
        value = scoped.costUsd
      } else value = run.totalCostUsd
      if (value === null) return fieldAbsent('total_cost_usd')
      const scope = model === null ? '' : ` for ${model}`
      return decidedTotal(context, decideRange(bound, value, totalsMayGrow(context)), at, `cost${scope} = $${rustFixed(value, 4)}, ${describeRange(bound)}`)
    }),
  )
}

export function cacheUsed(expected: boolean): Accumulator {
  return fromFacts((context) =>
    withUsage(context, (at, usage) => {
      const read = usage.cacheReadInputTokens
      if (read === null) return fieldAbsent('usage.cache_read_input_tokens')
      const used = read > 0
      const note = `cache read ${read} token(s), used = ${used}`
      // Subagents run apart, or left out of the usage, may have read the cache where the record counts none of theirs.
      if (!used && usageMayGrow(context)) return undecidable(apartReason(context))
      return used === expected ? ok([at], note) : gap([at], `${note}, expected ${expected}`)
    }),
  )
}

/** read / (read + input): cache creation is not a miss against the cache. */
export function cacheHitRatio(bound: RangeBound): Accumulator {
  return fromFacts((context) =>
    withUsage(context, (at, usage) => {
      const read = usage.cacheReadInputTokens
      const input = usage.inputTokens
      if (read === null || input === null) return fieldAbsent('usage.cache_read_input_tokens + usage.input_tokens')
      // A ratio of totals that miss the subagents' is bounded neither way.
      if (usageMayGrow(context)) return undecidable(apartReason(context))
      const denominator = read + input
      if (denominator === 0) return undecidable({ reason: 'ratio_undefined', denominator: 'cache_read_input_tokens + input_tokens' })
      const ratio = read / denominator
      return (rangeHolds(bound, ratio) ? ok : gap)([at], `hit ratio ${rustFixed(ratio, 5)} = ${read} / (${read} + ${input}), ${describeRange(bound)}`)
    }),
  )
}
