import { transcriptLabel, transcriptPath, type TraceTranscript } from '../trace/check/input.js'
import { openTranscriptPath, openTranscriptPathSync, openTranscriptText } from '../trace/ir/any-format.js'
import { TranscriptReader, type TranscriptChunk } from '../trace/ir/read.js'
import type { IrEvent, IrSink } from '../trace/ir/types.js'

/**
 * The events a failed expectation cites, one line each as a person reads them
 * (`#114 call bash {"command":"rm -rf dist"} (line 230)`), so a failure says which call broke the
 * rule and not only where it is. Read again from the transcript when a test fails, never while it
 * passes: the check itself holds no event once it has judged it.
 */

/** How many cited events a failure spells out; the rest are listed by index. */
export const MOST_EVENTS_SPELT_OUT = 5
const MOST_LINE_CHARACTERS = 200

/** One line, cut short: what an event says, as JSON escapes it (no newline, no control character). */
function short(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1)
  return escaped.length <= MOST_LINE_CHARACTERS ? escaped : `${escaped.slice(0, MOST_LINE_CHARACTERS)}…`
}

function compactJson(value: unknown): string {
  const text = JSON.stringify(value)
  return text.length <= MOST_LINE_CHARACTERS ? text : `${text.slice(0, MOST_LINE_CHARACTERS)}…`
}

/**
 * What one event says, in a line, with the transcript's line it was read from where that is the
 * file's own (a conversion's lines are those of the stream it became, which no one has open).
 */
export function eventLine(event: IrEvent, withLine: boolean): string {
  const where = withLine ? ` (line ${event.sourceLine})` : ''
  switch (event.family) {
    case 'tool_call':
      return `#${event.index} call ${short(event.call.name)} ${compactJson(event.call.input)}${where}`
    case 'tool_result': {
      const of = event.result.callId === null ? '' : ` of ${short(event.result.callId)}`
      const failed = event.result.isError === true ? ' (error)' : ''
      return `#${event.index} result${of}${failed}: "${short(event.result.content ?? '')}"${where}`
    }
    case 'assistant_text':
    case 'assistant_thinking':
    case 'synthetic_injection':
      return `#${event.index} ${event.family.replace('assistant_', '')}: "${short(event.text)}"${where}`
    case 'opaque':
      return `#${event.index} unread record${event.opaque.eventType === null ? '' : ` ${short(event.opaque.eventType)}`}${where}`
    default:
      return `#${event.index} ${event.family}${where}`
  }
}

/** Keeps the lines of the wanted events as the reader passes them. */
class CitedEventsSink implements IrSink {
  readonly lines = new Map<number, string>()

  constructor(
    private readonly wanted: ReadonlySet<number>,
    private readonly withLine = true,
  ) {}

  event(event: IrEvent): void {
    if (this.wanted.has(event.index)) this.lines.set(event.index, eventLine(event, this.withLine))
  }

  request(): void {}

  end(): void {}
}

/** How a transcript is named: its path or its text, and the format it is read in. */
function namedTranscript(transcript: TraceTranscript): { path?: string; text?: string | Uint8Array; from?: string; label: string } | undefined {
  const from = typeof transcript === 'object' && 'from' in transcript ? transcript.from : undefined
  const label = transcriptLabel(transcript)
  const path = transcriptPath(transcript)
  const named = { label, ...(from === undefined ? {} : { from }) }
  if (path !== undefined) return { ...named, path }
  if (typeof transcript === 'object' && 'text' in transcript) return { ...named, text: transcript.text }
  return undefined
}

/** Pushes one chunk; true once every wanted event is seen or the reader has stopped (nothing more will come). */
function readInto(reader: TranscriptReader, sink: CitedEventsSink, wanted: number, chunk: TranscriptChunk): boolean {
  reader.push(chunk)
  return reader.stopped || sink.lines.size === wanted
}

function finish(reader: TranscriptReader, sink: CitedEventsSink, wanted: readonly number[]): string[] {
  // What the reader holds until the stream ends (the terminal record) is handed over at its end.
  if (sink.lines.size < wanted.length && !reader.stopped) reader.end()
  return wanted.flatMap((index) => sink.lines.get(index) ?? [])
}

/**
 * The first cited events of a transcript named by path or held as text, each as a line, in the
 * order cited; empty for events handed over in memory (the check consumed them) or a transcript
 * that no longer reads as it did (changed since: the report is what names that).
 */
export async function citedEventLines(transcript: TraceTranscript, indices: readonly number[], maxLineBytes?: number): Promise<string[]> {
  const wanted = indices.slice(0, MOST_EVENTS_SPELT_OUT)
  const named = namedTranscript(transcript)
  if (wanted.length === 0 || named === undefined) return []
  try {
    const limit = maxLineBytes === undefined ? {} : { maxLineBytes }
    if (named.path === undefined) {
      const opened = openTranscriptText(named.text as string | Uint8Array, named.from, named.label)
      const sink = new CitedEventsSink(new Set(wanted), opened.read.origin === undefined)
      const reader = new TranscriptReader(sink, { ...opened.read, ...limit })
      readInto(reader, sink, wanted.length, opened.bytes)
      return finish(reader, sink, wanted)
    }
    // Streamed, and only as far as the last event wanted.
    const opened = openTranscriptPath(named.path, named.from, named.label)
    const sink = new CitedEventsSink(new Set(wanted), opened.read.origin === undefined)
    const reader = new TranscriptReader(sink, { ...opened.read, ...limit })
    for await (const chunk of opened.bytes) if (readInto(reader, sink, wanted.length, chunk)) break
    return finish(reader, sink, wanted)
  } catch {
    // Only detail: the failure stands on the report's verdict and indices without it.
    return []
  }
}

/** As `citedEventLines`, read whole and synchronously: what a matcher's message can do. */
export function citedEventLinesSync(transcript: TraceTranscript, indices: readonly number[]): string[] {
  const wanted = indices.slice(0, MOST_EVENTS_SPELT_OUT)
  const named = namedTranscript(transcript)
  if (wanted.length === 0 || named === undefined) return []
  try {
    const opened = named.path !== undefined ? openTranscriptPathSync(named.path, named.from, named.label) : openTranscriptText(named.text as string | Uint8Array, named.from, named.label)
    const sink = new CitedEventsSink(new Set(wanted), opened.read.origin === undefined)
    const reader = new TranscriptReader(sink, opened.read)
    readInto(reader, sink, wanted.length, opened.bytes)
    return finish(reader, sink, wanted)
  } catch {
    return []
  }
}
