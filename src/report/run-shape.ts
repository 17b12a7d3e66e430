import { TraceChecker } from '../trace/check/checker.js'
import type { TranscriptChunk, TranscriptReadOptions } from '../trace/ir/read.js'
import { readThrough } from '../trace/read-through.js'
import type { AssistantRequest, IrEvent, IrSink, StreamEnd } from '../trace/ir/types.js'
import type { TraceSpec } from '../trace/spec/model.js'
import type { TraceReport } from '../trace/report-types.js'
import { TeeSink } from './tee-sink.js'

/** One tool call as a diff compares it: what was asked and what came back, never ids or times. */
export interface ShapedCall {
  /** IR index of the call. */
  index: number
  name: string
  input: Record<string, unknown>
  /** IR index of its result, and what it said; null when none was correlated. */
  result: { index: number; content: string | null; isError: boolean | null } | null
}

export interface ShapedText {
  index: number
  text: string
}

export interface ShapedUsage {
  requests: number
  inputTokens: number
  outputTokens: number
  cacheReadInputTokens: number
  cacheCreationInputTokens: number
}

/** What a trajectory diff compares of one run. */
export interface RunShape {
  source: string
  adapter: string
  events: number
  calls: ShapedCall[]
  texts: ShapedText[]
  usage: ShapedUsage
  report: TraceReport | null
}

/** Keeps a run's calls (with their full arguments and results), its texts and its usage totals. */
class ShapeSink implements IrSink {
  readonly calls: ShapedCall[] = []
  readonly texts: ShapedText[] = []
  readonly usage: ShapedUsage = { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }
  private readonly open = new Map<string, ShapedCall>()

  event(event: IrEvent): void {
    if (event.family === 'tool_call') {
      const call: ShapedCall = { index: event.index, name: event.call.name, input: event.call.input, result: null }
      this.calls.push(call)
      if (event.call.callId !== null) this.open.set(event.call.callId, call)
    } else if (event.family === 'tool_result') {
      const id = event.result.callId
      const call = id === null ? undefined : this.open.get(id)
      if (call) {
        this.open.delete(id as string)
        call.result = { index: event.index, content: event.result.content, isError: event.result.isError }
      }
    } else if (event.family === 'assistant_text') this.texts.push({ index: event.index, text: event.text })
  }

  request(request: AssistantRequest): void {
    const usage = this.usage
    usage.requests += 1
    usage.inputTokens += request.inputTokens ?? 0
    usage.outputTokens += request.outputTokens ?? 0
    usage.cacheReadInputTokens += request.cacheReadInputTokens ?? 0
    usage.cacheCreationInputTokens += request.cacheCreationInputTokens ?? 0
  }

  end(_end: StreamEnd): void {}
}

/** Reads a run once for a diff; with a spec, checks it in the same pass. */
export async function readRunShape(source: AsyncIterable<TranscriptChunk>, options: TranscriptReadOptions & { source: string; spec?: TraceSpec; requireRead?: boolean }): Promise<RunShape> {
  const shape = new ShapeSink()
  const checker = options.spec ? new TraceChecker(options.spec) : undefined
  // `requireRead`: refuse (`VH_NOTHING_READ`) a run nothing of which was read, as the CLI does.
  const result = await readThrough(source, new TeeSink(checker ? [shape, checker] : [shape]), options)
  return {
    source: options.source,
    adapter: result.adapter.name,
    events: result.events,
    calls: shape.calls,
    texts: shape.texts,
    usage: shape.usage,
    report: checker ? checker.report(result.digest) : null,
  }
}
