import type { AssistantRequest, IrEvent, IrEventBody, IrSink } from './types.js'

/**
 * The one place IR indices are assigned: readers hand each event here in order and it numbers
 * them from 0 and passes them on. Nothing is kept but the count and the last event's body.
 */
export class IrEmitter {
  private next = 0
  private last: IrEvent | null = null

  constructor(private readonly sink: IrSink) {}

  /** Whether the sink wants `AssistantRequest.events` filled. */
  get wantsRequestEvents(): boolean {
    return this.sink.wantsRequestEvents === true
  }

  /** How many events have been emitted; the next one's index. */
  get count(): number {
    return this.next
  }

  /** The last event emitted, or `null`. */
  get lastEvent(): IrEvent | null {
    return this.last
  }

  /** Numbers the event, stamps its line and time (as written: `timeOf` reads it), and hands it to the sink. Returns its index. */
  emit(body: IrEventBody, sourceLine: number, timestamp: string | null): number {
    const event = body as IrEvent
    event.index = this.next++
    event.sourceLine = sourceLine
    event.timestamp = timestamp
    this.last = event
    this.sink.event(event)
    return event.index
  }

  /**
   * Numbers an event of a family the sink does not read without building it: indices stay those
   * of a full read, so every citation is unchanged.
   */
  pass(sourceLine: number, timestamp: string | null): void {
    const index = this.next++
    this.last = null
    this.sink.passed?.(index, sourceLine, timestamp)
  }

  request(request: AssistantRequest): void {
    this.sink.request(request)
  }
}
