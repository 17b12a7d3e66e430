import type { Emission } from '../../src/events/types.js'

/** The `session.started` emission, mutable while its facts are still being read. */
export type SessionStart = Extract<Emission, { event: 'session.started' }>

// A session opening waits for its facts at most this many events, so memory stays bounded.
const HOLD_LIMIT = 256

/**
 * Holds a session's opening until the record that completes it arrives (a model named after
 * the header, tools listed in a later request record), so `session.started` still comes first.
 * Events read meanwhile are held in order and released behind it.
 */
export class OpeningBuffer {
  private start: SessionStart | undefined
  private held: Emission[] = []

  /** Starts holding, with what the first record said. */
  begin(start: SessionStart): void {
    this.start = start
    this.held = []
  }

  /** The opening still being completed, or undefined once it was released (or never begun). */
  get pending(): SessionStart | undefined {
    return this.start
  }

  /** Passes events through, or holds them behind a pending opening. */
  pass(events: Emission[]): Emission[] {
    if (!this.start) return events
    this.held.push(...events)
    return this.held.length > HOLD_LIMIT ? this.release() : []
  }

  /** The opening, everything held behind it, then `events`. */
  release(events: Emission[] = []): Emission[] {
    if (!this.start) return events
    const out: Emission[] = [this.start, ...this.held, ...events]
    this.start = undefined
    this.held = []
    return out
  }
}
