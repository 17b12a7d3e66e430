import { TraceTranscriptError } from './errors.js'
import { TranscriptReader, type TranscriptChunk, type TranscriptReadOptions, type TranscriptReadResult } from './ir/read.js'
import { ReadWitness } from './ir/read-witness.js'
import type { IrSink } from './ir/types.js'

export interface ReadThroughOptions extends TranscriptReadOptions {
  /** The transcript as refusals name it. */
  readonly source?: string | undefined
  /** Refuse (`VH_NOTHING_READ`) a transcript nothing of which was read, as the CLI does. */
  readonly requireRead?: boolean | undefined
}

/**
 * Streams a transcript once through the trace reader into `sink`. Stops at the reader's first
 * refusal (a source that never ends must not keep it waiting); throws `TraceTranscriptError` for
 * a refused transcript and the witness's refusal for one nothing of which was read.
 */
export async function readThrough(source: AsyncIterable<TranscriptChunk>, sink: IrSink, options: ReadThroughOptions = {}): Promise<Extract<TranscriptReadResult, { ok: true }>> {
  const witness = options.requireRead ? new ReadWitness(sink) : undefined
  const reader = new TranscriptReader(witness ?? sink, options)
  for await (const chunk of source) {
    reader.push(chunk)
    if (reader.stopped) break
  }
  const result = reader.end()
  if (!result.ok) throw new TraceTranscriptError(result.refusals, result.format, result.total, options.source)
  if (witness?.nothingRead) throw witness.refusal(options.source ?? 'the transcript', result.adapter.name)
  return result
}
