import type { IrEvent, IrFamily, RateLimitState, RunOutcome, SessionStart, StreamEnd } from '../ir/types.js'
import { timeOf } from '../ir/timestamp.js'
import { undecidable, type Outcome, type UnknownReason } from './outcome.js'
import { provenClosed } from './closure.js'
import { UnreadTally } from './unread.js'

export type CallEvent = Extract<IrEvent, { family: 'tool_call' }>
export type ResultEvent = Extract<IrEvent, { family: 'tool_result' }>

/**
 * The run's final assistant text, and the events it was written in. A harness that streams its
 * answer writes it in pieces: the b10x loop writes one `text` event per delta, so the last event
 * alone is a fragment ("The file says:" then " hello harness"), and a matcher anchored on it
 * could hold where the answer does not. Pieces of one answer are text events with nothing between
 * them, not even a line the checker reads no fact from (a `usage` or `turn.started` between two
 * texts closes one request and opens the next), on the same request (or none named).
 */
export interface FinalText {
  /** The events the text was written in, in order. */
  readonly indices: number[]
  text: string
  readonly requestId: string | null
  /** The line of its last piece. */
  sourceLine: number
  /** The time of its last piece as written, where recorded. */
  timestamp: string | null
}

type TextEvent = Extract<IrEvent, { family: 'assistant_text' }>

/** Whether a text event is the next piece of the answer `last` holds so far. */
function continuesAnswer(last: FinalText, event: TextEvent): boolean {
  const previous = last.indices[last.indices.length - 1] as number
  // Several text blocks of one line share it; a piece on its own line comes on the very next one.
  const nextLine = event.sourceLine === last.sourceLine || event.sourceLine === last.sourceLine + 1
  return event.index === previous + 1 && nextLine && event.requestId === last.requestId
}

/**
 * The facts of a stream every expectation may consult, kept as the events go by: the opening
 * records, the last terminal record, rate-limit state, thinking estimate and final text,
 * and the indices of the events nobody could read. Constant memory, but for the opaque list
 * (which a reason cites in full, as upstream's does) and one entry per session.
 */
export class StreamFacts {
  /** Every opening record, in order: a driven run concatenates sessions, and each one opens its own. */
  readonly sessionStarts: { index: number; start: SessionStart }[] = []
  lastOutcome: { index: number; outcome: RunOutcome; timestamp: string | null } | null = null
  /** Where each terminal record stands: more than one, and the stream concatenates sessions. */
  private readonly outcomeEvents: number[] = []
  private lastRateLimit: { index: number; state: RateLimitState; timestamp: string | null } | null = null
  private lastEstimate: { index: number; tokens: number; timestamp: string | null } | null = null
  private lastText: FinalText | null = null
  readonly opaqueEvents: number[] = []
  /** Each unread event's type (null where it had none), beside `opaqueEvents`. */
  private readonly opaqueTypeOf: (string | null)[] = []
  /** The unread records counted by type, with their first lines: what the text report prints. */
  readonly unread = new UnreadTally()
  end: StreamEnd | null = null

  /** @param read the families the expectations named: a fact of any other may have been passed over, and is not asked for. */
  constructor(private readonly read: ReadonlySet<IrFamily> | null = null) {}

  /**
   * The final assistant text: the last text event, with the pieces of one answer that came just
   * before it (see `FinalText`); only for an expectation that names `assistant_text` among its facts.
   */
  finalText(): FinalText | null {
    this.mustRead('assistant_text')
    return this.lastText
  }

  /**
   * Whether the run is known to have ended after an event (the final text's last piece, the last
   * estimate or rate-limit state), so what the event says is what the run ended with: the stream is
   * proven closed, or its terminal record comes after the event, later in the stream and not
   * earlier in time. A reader may write the record at the stream's end from the
   * last turn that completed (Codex's rollout, from its last `task_complete`), so an event written
   * after that turn (a turn cut short) stands before the record yet is not the run's last word. A
   * session that opened after the record has none of its own: the run went on past it.
   */
  endedAfter(index: number, timestamp: string | null): boolean {
    this.mustRead('run_outcome')
    this.mustRead('session_start')
    if (provenClosed(this.end)) return true
    const outcome = this.lastOutcome
    if (outcome === null || outcome.index < index || this.openedAfter(outcome.index)) return false
    const ended = timeOf(outcome.timestamp)
    const at = timeOf(timestamp)
    return ended === null || at === null || ended >= at
  }

  /** Whether a session opened after the event at `index`; only for an expectation that names `session_start`. */
  openedAfter(index: number): boolean {
    this.mustRead('session_start')
    const lastStart = this.sessionStarts[this.sessionStarts.length - 1]
    return lastStart !== undefined && lastStart.index > index
  }

  /** The last thinking estimate; only for an expectation that names `thinking_estimate`. */
  lastEstimateOf(): { index: number; tokens: number; timestamp: string | null } | null {
    this.mustRead('thinking_estimate')
    return this.lastEstimate
  }

  /** The last rate-limit state; only for an expectation that names `rate_limit`. */
  lastRateLimitOf(): { index: number; state: RateLimitState; timestamp: string | null } | null {
    this.mustRead('rate_limit')
    return this.lastRateLimit
  }

  // A fact of a family the check passed over would answer from a stream it did not see.
  private mustRead(family: IrFamily): void {
    if (this.read !== null && !this.read.has(family)) throw new Error(`an expectation asked for the last ${family} without naming it among its facts: the check passed those events over`)
  }

  observe(event: IrEvent): void {
    switch (event.family) {
      case 'session_start':
        this.sessionStarts.push({ index: event.index, start: event.start })
        break
      case 'run_outcome':
        this.lastOutcome = { index: event.index, outcome: event.outcome, timestamp: event.timestamp }
        this.outcomeEvents.push(event.index)
        break
      case 'rate_limit':
        this.lastRateLimit = { index: event.index, state: event.state, timestamp: event.timestamp }
        break
      case 'thinking_estimate':
        if (event.estimatedTokens !== null) this.lastEstimate = { index: event.index, tokens: event.estimatedTokens, timestamp: event.timestamp }
        break
      case 'assistant_text': {
        // A subagent's words, streamed between the run's own, are its report to the run, not the run's answer.
        if (event.parentCallId !== null) break
        const last = this.lastText
        if (last !== null && continuesAnswer(last, event)) {
          last.text += event.text
          last.indices.push(event.index)
          last.sourceLine = event.sourceLine
          last.timestamp = event.timestamp
        } else this.lastText = { indices: [event.index], text: event.text, requestId: event.requestId, sourceLine: event.sourceLine, timestamp: event.timestamp }
        break
      }
      case 'opaque':
        this.opaqueEvents.push(event.index)
        this.opaqueTypeOf.push(event.opaque.eventType)
        this.unread.observe(event)
        break
      default:
        break
    }
  }

  /** Whether an event nobody could read might have added to a count. */
  get hasUnread(): boolean {
    return this.opaqueEvents.length > 0
  }

  /** The events the adapter could not read, as an `unk` reason (asked only where there are some). */
  opaqueReason(): UnknownReason {
    return this.opaqueReasonBefore(Infinity) ?? { reason: 'opaque_events', events: [], types: [] }
  }

  /** The unread events before event `index`, as an `unk` reason; null where there are none. */
  opaqueReasonBefore(index: number): UnknownReason | null {
    const events: number[] = []
    const types: string[] = []
    this.opaqueEvents.forEach((at, position) => {
      if (at >= index) return
      events.push(at)
      const type = this.opaqueTypeOf[position]
      if (type !== null && type !== undefined) types.push(type)
    })
    return events.length === 0 ? null : { reason: 'opaque_events', events, types }
  }

  /** The opening records (one per session the stream holds), or the `unk` there is none. */
  sessions(): readonly { index: number; start: SessionStart }[] | Outcome {
    return this.sessionStarts.length > 0 ? this.sessionStarts : undecidable({ reason: 'no_session_start' })
  }

  /**
   * The terminal record, or the `unk` there is none; only for an expectation that names
   * `run_outcome`. Where the stream concatenates sessions, each record's figures (cost, turns,
   * tokens, durations) are its own session's, and none is the run's: that is `unk` too.
   */
  terminal(): { index: number; outcome: RunOutcome } | Outcome {
    // The record itself is always read; the decisions its denials are joined with are not.
    this.mustRead('run_outcome')
    this.mustRead('session_start')
    if (this.outcomeEvents.length > 1) return undecidable({ reason: 'sessions_concatenated', events: [...this.outcomeEvents] })
    const outcome = this.lastOutcome
    // A session that opened after the record has none of its own: the record's figures are not the run's.
    if (outcome === null || this.openedAfter(outcome.index)) return undecidable({ reason: 'no_run_outcome' })
    return outcome
  }
}

/** Whether a lookup came back as an outcome (an `unk`) rather than what it looked for. */
export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'object' && value !== null && typeof (value as { outcome?: unknown }).outcome === 'string'
}

/**
 * Derives each call's generation interval from recorded timestamps: the call's own time minus the
 * time of the previous *timestamped line* (not the previous event: blocks on one line are one
 * moment). Three numbers of state.
 */
export class StepClock {
  private lineOfLast = -1
  private timeOfLast: number | null = null
  private timeBefore: number | null = null

  /** @param read whether the check declared it reads the clock (it then sees the events passed over too). */
  constructor(private readonly read = true) {}

  observe(event: IrEvent): void {
    // A check that reads no intervals never asks: its events' times stay unparsed.
    if (this.read) this.observeAt(event.sourceLine, timeOf(event.timestamp))
  }

  /** An event's line and time, read or passed over. */
  observeAt(sourceLine: number, timestampMs: number | null): void {
    if (timestampMs === null) return
    if (sourceLine !== this.lineOfLast) {
      this.timeBefore = this.timeOfLast
      this.lineOfLast = sourceLine
      this.timeOfLast = timestampMs
    }
  }

  /** The generation interval ending at this (just observed) call, or `null` where it cannot be derived. */
  genOf(event: IrEvent): number | null {
    if (!this.read) throw new Error('an expectation asked the step clock without declaring readsClock: the check passed over the times it needs')
    const at = timeOf(event.timestamp)
    if (at === null || this.timeBefore === null) return null
    return at - this.timeBefore
  }
}

type ResultListener = (result: ResultEvent) => void

/**
 * Correlates results to calls by call id, first result wins, as upstream's IR does — in one pass.
 * A call waits (by id) only until its result arrives, so memory is the calls in flight, not the
 * run. A result that arrives before any call with its id is kept (up to a cap) for the call that
 * follows. One divergence from upstream, which sees the whole IR: a call id reused after its
 * result arrived waits for the next result with that id instead of taking the first.
 */
export class CallCorrelator {
  private readonly pending = new Map<string, ResultListener[]>()
  private readonly early = new Map<string, ResultEvent>()
  static readonly EARLY_RESULT_CAP = 100_000

  /** Registers a call (before any listener asks about it). */
  call(event: CallEvent): void {
    const id = event.call.callId
    if (id === null || this.early.has(id) || this.pending.has(id)) return
    this.pending.set(id, [])
  }

  /** Calls `listener` with the call's result when it arrives (at once if it already did). */
  onResult(event: CallEvent, listener: ResultListener): void {
    const id = event.call.callId
    if (id === null) return
    const early = this.early.get(id)
    if (early) {
      listener(early)
      return
    }
    this.pending.get(id)?.push(listener)
  }

  result(event: ResultEvent): void {
    const id = event.result.callId
    if (id === null) return
    const listeners = this.pending.get(id)
    if (listeners) {
      this.pending.delete(id)
      for (const listener of listeners) listener(event)
      return
    }
    if (!this.early.has(id) && this.early.size < CallCorrelator.EARLY_RESULT_CAP) this.early.set(id, event)
  }
}
