import { timeOf } from '../../ir/timestamp.js'
import type { ToolCall } from '../../ir/types.js'
import { countHolds, describeCount } from '../../spec/bounds.js'
import type { CallSelector, CountBound } from '../../spec/model.js'
import { describeSelector, selectorMatches } from '../../spec/selector.js'
import type { Accumulator, CheckContext } from '../accumulator.js'
import { notClosedReason, provenClosed } from '../closure.js'
import { countVerdict } from '../count-verdict.js'
import { gap, ok, undecidable, type Outcome } from '../outcome.js'

/**
 * The time family: per-call intervals derived from recorded timestamps, never measured. `gen` is
 * known when the call is read (the clock holds the previous timestamped line); `exec` when its
 * result arrives. A negative or missing interval cannot be stated, and reads `unk`.
 */

type Phase = 'gen' | 'exec'

const NONE = -1

/** Each selected call and its interval (`-1` while unknown). */
function steps(select: (call: ToolCall) => boolean, phase: Phase, finish: (calls: number[], intervals: number[], context: CheckContext) => Outcome): Accumulator {
  const calls: number[] = []
  const intervals: number[] = []
  return {
    families: ['tool_call'],
    wantsResults: phase === 'exec',
    readsClock: phase === 'gen',
    event(event, context) {
      if (event.family !== 'tool_call' || !select(event.call)) return
      const position = calls.length
      calls.push(event.index)
      if (phase === 'gen') {
        const gen = context.clock.genOf(event)
        intervals.push(gen !== null && gen >= 0 ? gen : NONE)
        return
      }
      intervals.push(NONE)
      const sent = timeOf(event.timestamp)
      context.correlator.onResult(event, (result) => {
        const done = timeOf(result.timestamp)
        if (sent !== null && done !== null && done - sent >= 0) intervals[position] = done - sent
      })
    },
    finish: (context) => finish(calls, intervals, context),
  }
}

/** Every selected step's interval is within the bound; the first underivable one is `unk`. */
export function stepTime(selector: CallSelector, bound: CountBound, phase: Phase): Accumulator {
  return steps(
    (call) => selectorMatches(selector, call),
    phase,
    (calls, intervals, { facts }) => {
      const scope = describeSelector(selector)
      if (calls.length === 0) return undecidable({ reason: 'nothing_in_scope', selector: scope })
      const over: number[] = []
      for (let position = 0; position < calls.length; position++) {
        const value = intervals[position] as number
        if (value === NONE) return undecidable({ reason: 'timestamp_absent', event: calls[position] as number })
        if (!countHolds(bound, value)) over.push(calls[position] as number)
      }
      if (over.length > 0) return gap(over, `${over.length} of ${calls.length} ${scope} step(s) are outside ${describeCount(bound)} ms of ${phase}`)
      // "Every step" is a claim about the whole run: a stream not proven closed may hold more.
      if (!provenClosed(facts.end)) return undecidable(notClosedReason(facts.end))
      return ok([...calls], `every ${scope} step's ${phase} is ${describeCount(bound)} ms across ${calls.length} step(s)`)
    },
  )
}

/** The sum of every step's interval; a total that silently omitted one would be a smaller number. */
export function stepTotal(bound: CountBound, phase: Phase): Accumulator {
  return steps(
    () => true,
    phase,
    (calls, intervals, { facts }) => {
      if (calls.length === 0) return undecidable({ reason: 'nothing_in_scope', selector: 'any tool' })
      let total = 0
      for (let position = 0; position < calls.length; position++) {
        const value = intervals[position] as number
        if (value === NONE) return undecidable({ reason: 'timestamp_absent', event: calls[position] as number })
        total += value
      }
      // Unread events may hold steps, so the total is then a lower bound.
      const counted = { bound, observed: total, lowerBound: facts.hasUnread, undecided: () => facts.opaqueReason(), end: facts.end }
      return countVerdict(counted, [...calls], `${phase} total ${total} ms across ${calls.length} step(s), ${describeCount(bound)}`)
    },
  )
}
