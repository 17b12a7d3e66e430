import { sha256Hex } from '../../../events/digest.js'
import { compareCodePoints } from '../../../events/json.js'
import { repetitionKey } from '../../ir/call.js'
import type { IrEvent, ToolCall } from '../../ir/types.js'
import { describeCount } from '../../spec/bounds.js'
import type { CallSelector, CountBound } from '../../spec/model.js'
import { describeSelector, selectorMatches } from '../../spec/selector.js'
import { witnessMarker } from '../../ir/types.js'
import type { Accumulator } from '../accumulator.js'
import { gap, ok, undecidable, type Outcome } from '../outcome.js'
import { UnseenCalls } from '../unclassified.js'
import { notClosedReason } from '../closure.js'
import { countVerdict } from '../count-verdict.js'
import { loadsSkill, skillFileMaybePrinted } from './skill-calls.js'
import { MatchedCalls, refusedOf } from '../refused-calls.js'

/** The calls family: kinds decided by which calls happened, in what order, how often. */

/**
 * A count over the calls a predicate selects, decided as a lower bound when events went unread
 * or when calls the selector could not see (`unseen`: unclassified tools) might have added to it,
 * and a ceiling met only on a stream proven closed.
 */
function countedCalls(
  select: (call: ToolCall) => boolean,
  bound: CountBound,
  note: (observed: number) => string,
  unseen?: UnseenCalls,
  missed: (event: Extract<IrEvent, { family: 'tool_call' }>) => void = (event) => unseen?.missed(event),
): Accumulator {
  const calls = new MatchedCalls()
  return {
    families: ['tool_call'],
    // The terminal record and the seam's decisions name the calls the harness refused.
    facts: ['run_outcome'],
    event(event) {
      if (event.family !== 'tool_call') return
      if (select(event.call)) calls.add(event.index, event.call.callId)
      else missed(event)
    },
    finish({ facts }) {
      const events = calls.indices
      const lowerBound = facts.hasUnread || unseen?.any === true
      const undecided = () => (facts.hasUnread || !unseen ? facts.opaqueReason() : unseen.reason())
      const outcome = countVerdict({ bound, observed: events.length, lowerBound, undecided, end: facts.end }, events, note(events.length))
      const floor = bound.at_least ?? bound.exactly
      if (outcome.outcome !== 'ok' || floor === null) return outcome
      // A floor the calls asked for met is met only if enough of them ran.
      const refused = refusedOf(facts.end)
      const split = calls.ran(refused)
      if (split.atLeast >= floor) return outcome
      if (split.atMost >= floor) return undecidable({ reason: 'calls_refused', refusals: refused.unnamed, events: split.ran })
      if (lowerBound) return undecidable(undecided())
      return gap(events, `${note(events.length)}; the harness refused ${split.named.length} of them (events ${split.named.join(', ')}), so ${split.atMost} ran`)
    },
  }
}

export function toolCalled(selector: CallSelector, count: CountBound): Accumulator {
  return countedCalls(
    (call) => selectorMatches(selector, call),
    count,
    (observed) => `${describeSelector(selector)} called ${observed} time(s), ${describeCount(count)}`,
    new UnseenCalls(selector),
  )
}

/**
 * Calls that load a skill. A call that may have read the skill's `SKILL.md` where no reader can
 * tell (a glob over the skills folder, a script that opens it, a tool nobody classified) leaves
 * the count a lower bound, as calls a selector by that file could not see.
 */
export function skillInvoked(skill: string, count: CountBound): Accumulator {
  const skillFile: CallSelector = { tools: [], subject: { glob: `file:*${skill}/SKILL.md` }, args: {} }
  const unseen = new UnseenCalls(skillFile)
  // A line that may have printed the file (`grep -A 50 … SKILL.md`, `find … -name SKILL.md -exec cat {} ;`) may have loaded it.
  const missed = (event: Extract<IrEvent, { family: 'tool_call' }>): void => {
    const printed = skillFileMaybePrinted(event.call, skill)
    if (printed.length > 0) unseen.mayHave(event.index, printed)
    else unseen.missed(event)
  }
  return countedCalls((call) => loadsSkill(call, skill), count, (observed) => `${skill} invoked ${observed} time(s), ${describeCount(count)}`, unseen, missed)
}

/**
 * No call matches. A gap needs only the call; an `ok` is a claim about the whole run, so it needs
 * the producer's statement that the stream is closed — without it the row is `unk`, naming the
 * markers that would have decided it — and no call the selector could not see (an unclassified
 * tool's, when it selects by operation).
 */
export function toolAbsent(selector: CallSelector): Accumulator {
  const events: number[] = []
  const unseen = new UnseenCalls(selector)
  return {
    families: ['tool_call'],
    event(event) {
      if (event.family !== 'tool_call') return
      if (selectorMatches(selector, event.call)) events.push(event.index)
      else unseen.missed(event)
    },
    finish({ facts }) {
      const scope = describeSelector(selector)
      if (events.length > 0) return gap(events, `${events.length} call(s) match ${scope}`)
      if (unseen.any) return undecidable(unseen.reason())
      const close = facts.end?.closure ?? null
      if (close === null) return undecidable(notClosedReason(facts.end))
      const reason = close.reason === null ? '' : `, ${close.reason}`
      const unread = facts.opaqueEvents.length === 0 ? '' : `, over ${facts.opaqueEvents.length} unread event(s) the producer accounted for`
      return ok([], `no call matches ${scope}, and the run closed the stream (${witnessMarker(close.witness)}${reason})${unread}`)
    },
  }
}

/**
 * Groups of byte-identical `(tool, input)` calls. A group is keyed by its text while short and by
 * its sha256 when long, so memory is a few dozen bytes per distinct call, not the inputs; a group's
 * text is kept once it repeats, because the report orders repeated groups by it.
 */
export function toolRepeated(selector: CallSelector, count: CountBound): Accumulator {
  const groups = new Map<string, { events: number[]; key?: string }>()
  const unseen = new UnseenCalls(selector)
  return {
    families: ['tool_call'],
    event(event) {
      if (event.family !== 'tool_call') return
      if (!selectorMatches(selector, event.call)) {
        unseen.missed(event)
        return
      }
      const key = repetitionKey(event.call)
      const id = key.length <= 64 ? `k${key}` : `h${sha256Hex(key)}`
      const group = groups.get(id)
      if (group) {
        group.events.push(event.index)
        group.key = key
      } else groups.set(id, { events: [event.index] })
    },
    finish({ facts }) {
      const repeated = [...groups.values()].filter((group) => group.events.length > 1)
      repeated.sort((a, b) => compareCodePoints(a.key as string, b.key as string))
      const events = repeated.flatMap((group) => group.events)
      const undecided = () => (facts.hasUnread ? facts.opaqueReason() : unseen.reason())
      const note = `${repeated.length} identical ${describeSelector(selector)} call group(s), ${describeCount(count)}`
      return countVerdict({ bound: count, observed: repeated.length, lowerBound: facts.hasUnread || unseen.any, undecided, end: facts.end }, events, note)
    },
  }
}

/**
 * The first occurrence of one call precedes the first occurrence of another. A call the selector
 * could not see (an unclassified tool's) that comes earlier than the one that decided could have
 * been the first itself, so it leaves the order undecided. The first side's first occurrence is
 * its first call that ran: one the harness refused never did what the order is about.
 */
export function order(first: CallSelector, before: CallSelector): Accumulator {
  // Every call of `first` up to the first of `before` (any may turn out refused), else the first after it.
  const firsts = new MatchedCalls()
  let firstAfter: number | null = null
  let beforeAt: number | null = null
  const unseenFirst = new UnseenCalls(first)
  const unseenBefore = new UnseenCalls(before)
  return {
    families: ['tool_call'],
    // The terminal record and the seam's decisions name the calls the harness refused.
    facts: ['run_outcome'],
    event(event: IrEvent) {
      if (event.family !== 'tool_call') return
      if (beforeAt === null) {
        if (selectorMatches(first, event.call)) firsts.add(event.index, event.call.callId)
        else unseenFirst.missed(event)
        if (selectorMatches(before, event.call)) beforeAt = event.index
        else unseenBefore.missed(event)
      } else if (firsts.count === 0 && firstAfter === null && selectorMatches(first, event.call)) firstAfter = event.index
    },
    finish({ facts }): Outcome {
      if (firsts.count === 0 && firstAfter === null) return undecidable({ reason: 'never_occurred', selector: describeSelector(first) })
      if (beforeAt === null) return undecidable({ reason: 'never_occurred', selector: describeSelector(before) })
      const beforeIndex = beforeAt
      const refused = refusedOf(facts.end)
      const kept = firsts.kept(refused)
      const ran = kept.ran.filter((index) => index < beforeIndex)
      const refusedEarlier = kept.refused.filter((index) => index < beforeIndex)
      // Refusals the stream did not name may be these very calls; calls whose ids were not kept may be the ones that ran.
      if (ran.length > 0 && ran.length <= refused.unnamed) return undecidable({ reason: 'calls_refused', refusals: refused.unnamed, events: ran })
      if (ran.length === 0 && !firsts.whole) return undecidable({ reason: 'calls_refused', refusals: refused.unnamed, events: refusedEarlier })
      const holds = ran.length > 0
      // Where none ran before it: the first call of `first` at or after the first of `before`, if one was made.
      const firstAt = holds ? (ran[0] as number) : (firsts.indices.find((index) => index >= beforeIndex) ?? firstAfter)
      // An unseen call, or an event nobody could read, overturns the answer only if it came before the occurrence that decided it.
      const decidedAt = holds ? (firstAt as number) : beforeIndex
      const overturning = (holds ? unseenBefore.reasonBefore(decidedAt) : unseenFirst.reasonBefore(beforeIndex)) ?? facts.opaqueReasonBefore(decidedAt)
      if (overturning) return undecidable(overturning)
      // Calls held elsewhere (a subagent's…) that began before the deciding occurrence may hold the true first one.
      const elsewhere = facts.end?.callsElsewhereFrom ?? null
      if (elsewhere !== null && decidedAt >= elsewhere) return undecidable(notClosedReason(facts.end))
      if (!holds && refusedEarlier.length > 0) {
        const note = `the harness refused every ${describeSelector(first)} call before the first ${describeSelector(before)} at ${beforeIndex} (events ${refusedEarlier.join(', ')}): none ran before it`
        return gap([...refusedEarlier, beforeIndex], note)
      }
      const note = `first ${describeSelector(first)} at ${firstAt}, first ${describeSelector(before)} at ${beforeIndex}`
      return (holds ? ok : gap)([firstAt as number, beforeIndex], note)
    },
  }
}
