import { TranscriptError } from '../../../adapters/errors.js'
import type { AssistantRequest, IrEvent, IrReads, IrSink, SessionStart, StreamEnd } from './types.js'

/** Whether an opening record says anything at all (a reader builds one from nothing for some formats). */
function saysSomething(start: SessionStart): boolean {
  return Object.values(start).some((value) => value !== null)
}

/**
 * Watches IR pass to a sink and says whether anything in the transcript was read: an event other
 * than `opaque` and an empty session opening, or an API request. A transcript of which nothing was
 * read — the wrong `--from`, a file no reader knows — judges nothing, and a verb that gates on it
 * refuses it (`VH_NOTHING_READ`) rather than answer from nothing.
 */
export class ReadWitness implements IrSink {
  private read = false
  private emptyStart = false
  private opaque = 0
  private readonly types = new Map<string, number>()
  private adapter: string | null = null

  constructor(private readonly sink: IrSink) {}

  get wantsRequestEvents(): boolean | undefined {
    return this.sink.wantsRequestEvents
  }

  get reads(): IrReads | undefined {
    return this.sink.reads
  }

  /** An event passed over is one of a family the reader understood: something was read. */
  passed(index: number, sourceLine: number, timestamp: string | null): void {
    this.read = true
    this.sink.passed?.(index, sourceLine, timestamp)
  }

  event(event: IrEvent): void {
    if (event.family === 'opaque') {
      this.opaque += 1
      const type = event.opaque.eventType ?? '(untyped)'
      this.types.set(type, (this.types.get(type) ?? 0) + 1)
    } else if (event.family !== 'session_start' || saysSomething(event.start)) this.read = true
    else this.emptyStart = true
    this.sink.event(event)
  }

  request(request: AssistantRequest): void {
    this.read = true
    this.sink.request(request)
  }

  end(end: StreamEnd): void {
    this.adapter = end.adapter.name
    this.sink.end(end)
  }

  /** Whether nothing was read: only opaque events, or only an opening built from nothing (no events at all the reader refuses itself). */
  get nothingRead(): boolean {
    return !this.read && (this.opaque > 0 || this.emptyStart)
  }

  /** The refusal of a transcript nothing of which was read, naming the reader and what it met. */
  refusal(file: string, adapter: string | null = this.adapter): TranscriptError {
    const types = [...this.types].map(([type, count]) => `${type} ×${count}`).join(', ')
    return new TranscriptError(
      'VH_NOTHING_READ',
      file,
      null,
      `nothing in it was read as ${adapter ?? 'a transcript'}: its ${this.opaque} record(s) are all unread (${types}); is it the format named? Name the right one with --from`,
    )
  }
}
