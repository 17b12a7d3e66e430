import type { AssistantRequest, IrEvent, IrFamily } from '../ir/types.js'
import type { CallCorrelator, StepClock, StreamFacts } from './context.js'
import type { Outcome } from './outcome.js'

/** What every accumulator may consult besides its own state. */
export interface CheckContext {
  readonly facts: StreamFacts
  readonly clock: StepClock
  readonly correlator: CallCorrelator
}

/**
 * One expectation, decided in one pass: fed the events it reads as they arrive, holding only what
 * its verdict needs (a count, a first index, the citations the report will print), and asked for
 * its outcome once the stream has ended. This is what keeps a check's memory bounded by the
 * expectations rather than by the transcript.
 */
export interface Accumulator {
  /** The IR families `event` is called for. */
  readonly families: readonly IrFamily[]
  /** Whether `request` should be called for each API request record. */
  readonly wantsRequests?: boolean
  /** Whether requests must carry the events they produced (a citation reads them). */
  readonly wantsRequestEvents?: boolean
  /** Whether this accumulator asks the correlator for results. */
  readonly wantsResults?: boolean
  /**
   * The families whose stream facts `finish` consults (the opening, the terminal record, the last
   * text…). A check passes over the events of a family nobody names, so a fact read without being
   * named here throws rather than answer from a stream it did not see.
   */
  readonly facts?: readonly IrFamily[]
  /** Whether this accumulator asks the step clock for intervals (it then sees every event's time). */
  readonly readsClock?: boolean
  event?(event: IrEvent, context: CheckContext): void
  request?(request: AssistantRequest, context: CheckContext): void
  finish(context: CheckContext): Outcome
}

/** The facts most expectations over a run consult: its opening and its terminal record. */
export const SESSION_AND_TERMINAL: readonly IrFamily[] = ['session_start', 'run_outcome']

/** An accumulator that reads nothing but the stream's facts: those of `facts`. */
export function fromFacts(finish: (context: CheckContext) => Outcome, facts: readonly IrFamily[] = SESSION_AND_TERMINAL): Accumulator {
  return { families: [], facts, finish }
}
