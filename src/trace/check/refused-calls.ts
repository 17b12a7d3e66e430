import type { RefusedCalls, StreamEnd } from '../ir/types.js'

/**
 * A call the harness refused was asked for and never ran: it is no evidence that what it would
 * have done was done. A floor on calls (`tool.called`, `skill.invoked`) is met only by calls that
 * ran, and the first side of an `order` is its first call that ran. A ceiling still counts every
 * call asked for, as upstream does, so this only ever takes an `ok` away (ours: upstream counts a
 * refused call as made).
 */

/** A call a selector matched: where it is, and which call it was. */
export interface MatchedCall {
  readonly index: number
  readonly callId: string | null
}

const NONE: RefusedCalls = { ids: new Set(), unnamed: 0 }

/** What the stream said of its refused calls (nothing, where it has not ended). */
export function refusedOf(end: StreamEnd | null): RefusedCalls {
  return end?.refusedCalls ?? NONE
}

/** Whether the harness named `call` as one it refused. */
export function namedRefused(call: MatchedCall, refused: RefusedCalls): boolean {
  return call.callId !== null && refused.ids.has(call.callId)
}

/** How many of `calls` ran: at most those not named refused, at least that less every refusal not named. */
export function ranAmong(calls: readonly MatchedCall[], refused: RefusedCalls): { named: MatchedCall[]; atMost: number; atLeast: number } {
  const named = calls.filter((call) => namedRefused(call, refused))
  const atMost = calls.length - named.length
  return { named, atMost, atLeast: Math.max(0, atMost - refused.unnamed) }
}
