import type { StreamEnd } from '../ir/types.js'
import { decideCount } from '../spec/bounds.js'
import type { CountBound } from '../spec/model.js'
import { ceilingUnproven, notClosedReason } from './closure.js'
import { gap, ok, undecidable, type Outcome, type UnknownReason } from './outcome.js'

/** A count a row reads against its bound. */
export interface Count {
  readonly bound: CountBound
  readonly observed: number
  /** Whether more may have counted than were seen (unread events, calls a selector could not see): the count is then a lower bound. */
  readonly lowerBound: boolean
  /** Why a lower bound cannot settle the bound; asked only then. */
  readonly undecided: () => UnknownReason
  /** How the stream ended: a ceiling that holds needs it proven closed. */
  readonly end: StreamEnd | null
}

/**
 * A count's verdict: a lower bound that cannot settle its bound is `unk` for its reason; a ceiling
 * (`at_most`, `exactly`) that holds on a stream not proven closed is `unk` too, since more may
 * follow; anything else is ok or gap, citing `events` with `note`.
 */
export function countVerdict(count: Count, events: number[], note: string): Outcome {
  const decision = decideCount(count.bound, count.observed, count.lowerBound)
  if (decision === 'undecided') return undecidable(count.undecided())
  if (decision === 'holds' && ceilingUnproven(count.bound, count.end)) return undecidable(notClosedReason(count.end))
  return (decision === 'holds' ? ok : gap)(events, note)
}
