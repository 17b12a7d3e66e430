import { describeCount, describeRange, countHolds, rangeHolds } from '../../spec/bounds.js'
import { describeMatcher, matchesRecorded } from '../../spec/matcher.js'
import type { CallSelector, CountBound, FieldMatcher, RangeBound } from '../../spec/model.js'
import { describeSelector, selectorMatches, sortedKeys } from '../../spec/selector.js'
import { rustFixed } from '../../rust-format.js'
import type { ToolCall, ToolResult } from '../../ir/types.js'
import type { Accumulator, CheckContext } from '../accumulator.js'
import { gap, ok, undecidable, type Outcome, type UnknownReason } from '../outcome.js'
import { loadsSkill, reportsSkillCompletion } from './skill-calls.js'
import { UnseenCalls } from '../unclassified.js'
import { notClosedReason, provenClosed } from '../closure.js'
import { countVerdict } from '../count-verdict.js'

/**
 * The results family: kinds decided by what came back. Each selected call keeps one small record
 * in call order — its event, its result's event once correlated, and what that result said — so
 * the verdict is folded in call order exactly as upstream folds it, whatever order results arrive.
 */

const NO_RESULT = -1

/** Selected calls and, once correlated, their results reduced to what a kind needs. */
class CallRecords<T> {
  readonly calls: number[] = []
  readonly results: number[] = []
  readonly said: (T | undefined)[] = []

  constructor(
    private readonly select: (call: ToolCall) => boolean,
    private readonly read: (result: ToolResult, call: ToolCall) => T,
    /** Calls the selector could not see (unclassified tools'), for the kinds whose answer they could change. */
    readonly unseen?: UnseenCalls,
  ) {}

  accumulator(finish: (records: CallRecords<T>, context: CheckContext) => Outcome): Accumulator {
    return {
      families: ['tool_call'],
      wantsResults: true,
      event: (event, context) => {
        if (event.family !== 'tool_call') return
        if (!this.select(event.call)) {
          this.unseen?.missed(event)
          return
        }
        const position = this.calls.length
        this.calls.push(event.index)
        this.results.push(NO_RESULT)
        this.said.push(undefined)
        context.correlator.onResult(event, (result) => {
          this.results[position] = result.index
          this.said[position] = this.read(result.result, event.call)
        })
      },
      finish: (context) => finish(this, context),
    }
  }
}

/** `field matcher, …` in field order, as upstream renders a result matcher. */
function describeResultMatcher(fields: Record<string, FieldMatcher>): string {
  return sortedKeys(fields)
    .map((field) => `${field} ${describeMatcher(fields[field] as FieldMatcher)}`)
    .join(', ')
}

/** No call in scope: unclassified calls may have been, so that is their reason; else nothing is. */
function emptyScope(selector: CallSelector, unseen: UnseenCalls): Outcome {
  return undecidable(unseen.any ? unseen.reason() : { reason: 'nothing_in_scope', selector: describeSelector(selector) })
}

type ResultVerdict = { kind: 'satisfied' } | { kind: 'failed' } | { kind: 'absent'; field: string }

/** Every matched call's result satisfies the matcher; a gap beside an unknown is still a gap. */
export function toolResult(selector: CallSelector, fields: Record<string, FieldMatcher>): Accumulator {
  const names = sortedKeys(fields)
  const records = new CallRecords<ResultVerdict>(
    (call) => selectorMatches(selector, call),
    (result) => {
      const absent = names.find((field) => !Object.hasOwn(result.fields, field))
      if (absent !== undefined) return { kind: 'absent', field: absent }
      const holds = names.every((field) => matchesRecorded(fields[field] as FieldMatcher, result.fields[field]))
      return { kind: holds ? 'satisfied' : 'failed' }
    },
    new UnseenCalls(selector),
  )
  const unseen = records.unseen as UnseenCalls
  return records.accumulator(({ calls, results, said }, { facts }) => {
    if (calls.length === 0) return emptyScope(selector, unseen)
    const satisfied: number[] = []
    const failed: number[] = []
    let undecided: UnknownReason | null = null
    calls.forEach((call, position) => {
      const result = results[position] as number
      const verdict = said[position]
      if (result === NO_RESULT || verdict === undefined) {
        undecided ??= { reason: 'no_result_correlated', call_event: call }
        return
      }
      if (verdict.kind === 'absent') {
        undecided ??= { reason: 'result_field_absent', call_event: call, result_event: result, field: verdict.field }
        return
      }
      ;(verdict.kind === 'satisfied' ? satisfied : failed).push(result)
    })
    const matcher = describeResultMatcher(fields)
    // Upstream counts `satisfied + 1` in this note; kept so the two reports read the same.
    if (failed.length > 0) return gap(failed, `${satisfied.length + 1} result(s) do not satisfy ${matcher}`)
    if (undecided) return undecidable(undecided)
    // "Every result" is a claim about calls the selector could not see too.
    if (unseen.any) return undecidable(unseen.reason())
    // And about calls a stream not proven closed left unwritten.
    if (!provenClosed(facts.end)) return undecidable(notClosedReason(facts.end))
    return ok(satisfied, `every matched result satisfies ${matcher}`)
  })
}

/**
 * The bytes the selected calls' results carried, in total or each. A result that recorded neither
 * content nor a byte count carried an unknown amount: a total with one is a lower bound, and an
 * "each" bound cannot hold over it (either answers `result_field_absent`, citing the first).
 */
export function toolResultBytes(selector: CallSelector, bytes: CountBound, per: 'total' | 'each'): Accumulator {
  const unseen = new UnseenCalls(selector)
  const records = new CallRecords<number | null>((call) => selectorMatches(selector, call), (result) => result.contentBytes, unseen)
  return records.accumulator(({ calls, results, said }, { facts }) => {
    const scope = describeSelector(selector)
    if (calls.length === 0) return emptyScope(selector, unseen)
    const missing = results.indexOf(NO_RESULT)
    if (missing !== -1) return undecidable({ reason: 'no_result_correlated', call_event: calls[missing] as number })
    const untold = said.indexOf(null)
    const sizeUnknown: UnknownReason | null = untold === -1 ? null : { reason: 'result_field_absent', call_event: calls[untold] as number, result_event: results[untold] as number, field: 'content' }
    if (per === 'total') {
      const total = said.reduce<number>((sum, size) => sum + (size ?? 0), 0)
      const undecided = () => sizeUnknown ?? (facts.hasUnread ? facts.opaqueReason() : unseen.reason())
      return countVerdict({ bound: bytes, observed: total, lowerBound: facts.hasUnread || unseen.any || sizeUnknown !== null, undecided, end: facts.end }, [...results], `${scope} returned ${total}B in total, ${describeCount(bytes)}`)
    }
    const over = results.filter((_, position) => said[position] !== null && !countHolds(bytes, said[position] as number))
    if (over.length > 0) return gap(over, `${over.length} result(s) are outside ${describeCount(bytes)} bytes`)
    if (sizeUnknown) return undecidable(sizeUnknown)
    if (unseen.any) return undecidable(unseen.reason())
    // "Every result" is a claim about the whole run.
    if (!provenClosed(facts.end)) return undecidable(notClosedReason(facts.end))
    return ok([...results], `every ${scope} result is ${describeCount(bytes)} bytes`)
  })
}

/** How many selected calls failed, and the first reason that could not be read, in call order. */
function failures(calls: number[], results: number[], said: (boolean | null | undefined)[]): { failed: number; events: number[]; undecided: UnknownReason | null } {
  let failed = 0
  const events: number[] = []
  let undecided: UnknownReason | null = null
  calls.forEach((call, position) => {
    const result = results[position] as number
    if (result === NO_RESULT) {
      undecided ??= { reason: 'no_result_correlated', call_event: call }
      return
    }
    const isError = said[position]
    if (isError === true) {
      failed += 1
      events.push(result)
    } else if (isError === null || isError === undefined) {
      undecided ??= { reason: 'result_field_absent', call_event: call, result_event: result, field: 'is_error' }
    }
  })
  return { failed, events, undecided }
}

export function toolFailed(selector: CallSelector, count: CountBound): Accumulator {
  const unseen = new UnseenCalls(selector)
  const records = new CallRecords<boolean | null>((call) => selectorMatches(selector, call), (result) => result.isError, unseen)
  return records.accumulator(({ calls, results, said }, { facts }) => {
    const scope = describeSelector(selector)
    if (calls.length === 0) return emptyScope(selector, unseen)
    const { failed, events, undecided } = failures(calls, results, said)
    const why = () => undecided ?? (facts.hasUnread ? facts.opaqueReason() : unseen.reason())
    const counted = { bound: count, observed: failed, lowerBound: facts.hasUnread || undecided !== null || unseen.any, undecided: why, end: facts.end }
    return countVerdict(counted, events, `${failed} of ${calls.length} ${scope} call(s) failed, ${describeCount(count)}`)
  })
}

export function toolErrorRate(selector: CallSelector, rate: RangeBound): Accumulator {
  const unseen = new UnseenCalls(selector)
  const records = new CallRecords<boolean | null>((call) => selectorMatches(selector, call), (result) => result.isError, unseen)
  return records.accumulator(({ calls, results, said }, { facts }) => {
    const scope = describeSelector(selector)
    // A rate over zero calls is not zero.
    if (calls.length === 0) return emptyScope(selector, unseen)
    const { failed, events, undecided } = failures(calls, results, said)
    if (undecided) return undecidable(undecided)
    // A call nobody could classify might have been in the rate, on either side of it.
    if (unseen.any) return undecidable(unseen.reason())
    // Calls a stream not proven closed left unwritten move a rate either way: neither side is proven.
    if (!provenClosed(facts.end)) return undecidable(notClosedReason(facts.end))
    const observed = failed / calls.length
    const note = `${failed} of ${calls.length} ${scope} call(s) failed — rate ${rustFixed(observed, 3)}, ${describeRange(rate)}`
    return (rangeHolds(rate, observed) ? ok : gap)(events, note)
  })
}

type Completion = 'completed' | 'no_command_name' | 'no_success' | 'no_is_error' | 'other'

/**
 * How one load of `skill` went. Claude Code's `Skill` result names the skill and says `success:
 * true`; any other load of it (`skill-calls.ts`) completed when its result is no error.
 */
function completionOf(result: ToolResult, call: ToolCall, skill: string): Completion {
  if (!reportsSkillCompletion(call)) return result.isError === false ? 'completed' : result.isError === null ? 'no_is_error' : 'other'
  const named = result.fields['commandName']
  const succeeded = result.fields['success']
  if (typeof named === 'string' && succeeded === true && named === skill) return 'completed'
  if (typeof named !== 'string') return 'no_command_name'
  if (typeof succeeded !== 'boolean') return 'no_success'
  return 'other'
}

/** The skill ran to completion (`completionOf`). */
export function skillCompleted(skill: string, count: CountBound): Accumulator {
  // Whether a load other than Claude Code's `Skill` was counted: the note then says how.
  let othersLoaded = false
  const records = new CallRecords<Completion>(
    (call) => {
      const loads = loadsSkill(call, skill)
      if (loads && !reportsSkillCompletion(call)) othersLoaded = true
      return loads
    },
    (result, call) => completionOf(result, call, skill),
  )
  return records.accumulator(({ calls, results, said }, { facts }) => {
    const events: number[] = []
    let completed = 0
    let undecided: UnknownReason | null = null
    calls.forEach((call, position) => {
      const result = results[position] as number
      if (result === NO_RESULT) {
        undecided ??= { reason: 'no_result_correlated', call_event: call }
        return
      }
      const completion = said[position]
      if (completion === 'completed') {
        completed += 1
        events.push(call, result)
      } else if (completion === 'no_command_name') {
        undecided ??= { reason: 'result_field_absent', call_event: call, result_event: result, field: 'commandName' }
      } else if (completion === 'no_success') {
        undecided ??= { reason: 'result_field_absent', call_event: call, result_event: result, field: 'success' }
      } else if (completion === 'no_is_error') {
        undecided ??= { reason: 'result_field_absent', call_event: call, result_event: result, field: 'is_error' }
      }
    })
    const how = othersLoaded ? 'with success=true or a result without error' : 'with success=true'
    const counted = { bound: count, observed: completed, lowerBound: facts.hasUnread || undecided !== null, undecided: () => undecided ?? facts.opaqueReason(), end: facts.end }
    return countVerdict(counted, events, `${skill} completed ${completed} time(s) ${how}, ${describeCount(count)}`)
  })
}
