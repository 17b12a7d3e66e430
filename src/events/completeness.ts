import type { CloseReason, EventLine } from './types.js'

/** Whether a stream proves it ended (notes §1.5, amendment a17). */
export type StreamCompleteness =
  | { readonly kind: 'complete'; readonly events: number; readonly reason: CloseReason }
  | { readonly kind: 'inconsistent'; readonly detail: string; readonly reason: CloseReason | null }
  | { readonly kind: 'truncated' }

/**
 * Tracks completeness one line at a time, so a stream of any size is judged in constant memory:
 * complete iff exactly one `stream.closed`, it is the last line, and it counts the lines before it.
 */
export class CompletenessTracker {
  private position = 0
  private markers = 0
  private lastMarker: { position: number; events: number; reason: CloseReason } | undefined

  push(event: Pick<EventLine, 'event'> & { events?: number; reason?: unknown }): void {
    this.position += 1
    if (event.event === 'stream.closed') {
      this.markers += 1
      this.lastMarker = {
        position: this.position,
        events: Number(event.events),
        reason: event.reason as CloseReason,
      }
    }
  }

  result(): StreamCompleteness {
    const marker = this.lastMarker
    if (!marker) return { kind: 'truncated' }
    if (this.markers > 1) {
      return { kind: 'inconsistent', detail: `${this.markers} stream.closed markers, expected one`, reason: marker.reason }
    }
    if (marker.position !== this.position) {
      return {
        kind: 'inconsistent',
        detail: `the stream.closed marker is line ${marker.position} of ${this.position}, not the last`,
        reason: marker.reason,
      }
    }
    if (marker.events !== marker.position - 1) {
      return {
        kind: 'inconsistent',
        detail: `the marker counts ${marker.events} event(s) but ${marker.position - 1} precede it`,
        reason: marker.reason,
      }
    }
    return { kind: 'complete', events: marker.events, reason: marker.reason }
  }
}

/** Judges a whole stream already in memory. */
export function streamCompleteness(events: Iterable<Pick<EventLine, 'event'>>): StreamCompleteness {
  const tracker = new CompletenessTracker()
  for (const event of events) tracker.push(event)
  return tracker.result()
}

/** The one-line rendering upstream prints. */
export function renderCompleteness(completeness: StreamCompleteness): string {
  switch (completeness.kind) {
    case 'complete':
      return `stream: complete — ${completeness.events} event(s) before the marker, reason ${completeness.reason}`
    case 'inconsistent':
      return `stream: INCONSISTENT — ${completeness.detail}`
    case 'truncated':
      return 'stream: TRUNCATED — no stream.closed marker; the run may have been cut short'
  }
}
