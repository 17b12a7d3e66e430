import { EVENT_FORMAT } from '../../src/events/format.js'
import { readEventLine } from '../../src/events/read.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import type { LineFormat } from '../formats.js'
import { opaqueLine } from '../shared/opaque.js'
import type { RecordProjector } from '../types.js'

/**
 * A `metaharness.event/1` stream read as a transcript: each event carried over (renumbered under
 * the new run id), its `stream.closed` marker honoured as the closure. A line the strict reader
 * refuses is carried as opaque.
 */
class EventStreamProjector implements RecordProjector {
  private closed: CloseReason | null = null

  pushRecord(_record: Record<string, unknown>, raw: string, lineNumber: number): Emission[] {
    const read = readEventLine(raw, lineNumber)
    this.closed = null
    if (!read.ok) return [opaqueLine(raw, null, null, lineNumber)]
    const { format: _format, seq: _seq, run: _run, ...event } = read.event
    if (event.event === 'stream.closed') {
      this.closed = event.reason
      return []
    }
    return [event as Emission]
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    this.closed = null
    return [opaqueLine(raw, null, null, lineNumber)]
  }

  finish(): Emission[] {
    return []
  }

  closure(): CloseReason | null {
    return this.closed
  }
}

export const eventStreamFormat: LineFormat = {
  kind: 'lines',
  name: EVENT_FORMAT,
  aliases: ['metaharness/event-stream'],
  adapter: 'metaharness',
  summary: 'a metaharness.event/1 stream (read as it is, renumbered)',
  extension: '.jsonl',
  createProjector: () => new EventStreamProjector(),
  sniff: (record) => record['format'] === EVENT_FORMAT,
}
