import type { StreamEnd } from '../ir/types.js'
import type { CountBound } from '../spec/model.js'
import type { UnknownReason } from './outcome.js'

/**
 * Whether the stream is proven to hold the whole run. A claim about every call, or a ceiling that
 * holds, is a claim about the whole run: on a stream not proven closed, what was not written may
 * add a call, a failure or a byte.
 */
export function provenClosed(end: StreamEnd | null): boolean {
  return (end?.closure ?? null) !== null
}

/** Whether a bound caps the count (`at_most`, `exactly`): holding, it is a claim that no more came. */
export function isCeiling(bound: CountBound): boolean {
  return bound.at_most !== null || bound.exactly !== null
}

/** A ceiling that holds on a stream not proven closed is unproven: more may follow. */
export function ceilingUnproven(bound: CountBound, end: StreamEnd | null): boolean {
  return isCeiling(bound) && !provenClosed(end)
}

/** Why a stream proves no closure: calls it says are elsewhere (a subagent's, a process's input, code's), or nothing said it closed. */
export function notClosedReason(end: StreamEnd | null): UnknownReason {
  const subagents = end?.subagentsUnseen ?? 0
  const processes = end?.processesUnseen ?? 0
  const nested = end?.nestedUnseen ?? 0
  if (subagents > 0) return { reason: 'subagent_calls_unseen', subagents }
  if (processes > 0) return { reason: 'process_input_unseen', processes }
  if (nested > 0) return { reason: 'nested_calls_unseen', calls: nested }
  return { reason: 'stream_not_closed', markers: [...(end?.closureMarkers ?? [])] }
}
