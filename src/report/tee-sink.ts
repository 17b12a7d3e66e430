import type { AssistantRequest, IrEvent, IrSink, StreamEnd } from '../trace/ir/types.js'

/** Hands every IR event to each sink, in order: one read feeds the checker and the timeline. */
export class TeeSink implements IrSink {
  readonly wantsRequestEvents: boolean

  constructor(private readonly sinks: readonly IrSink[]) {
    this.wantsRequestEvents = sinks.some((sink) => sink.wantsRequestEvents === true)
  }

  event(event: IrEvent): void {
    for (const sink of this.sinks) sink.event(event)
  }

  request(request: AssistantRequest): void {
    for (const sink of this.sinks) sink.request(request)
  }

  end(end: StreamEnd): void {
    for (const sink of this.sinks) sink.end(end)
  }
}
