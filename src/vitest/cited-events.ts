import { transcriptLabel, transcriptPath, type TraceTranscript } from '../trace/check/input.js'
import { openTranscriptPath, openTranscriptPathSync, openTranscriptText, type OpenedTranscript } from '../trace/ir/any-format.js'
import { TranscriptReader } from '../trace/ir/read.js'
import { terminalSafe } from '../util/terminal-text.js'
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

/**
 * What one event says, in a line, with the transcript's line it was read from where that is the
 * file's own (a conversion's lines are those of the stream it became, which no one has open).
 */
export function eventLine(event: IrEvent, withLine: boolean): string {
  const where = withLine ? ` (line ${event.sourceLine})` : ''
  switch (event.family) {
    case 'tool_call':
      return `#${event.index} call ${terminalSafe(event.call.name, 60)} ${terminalSafe(JSON.stringify(event.call.input), MOST_LINE_CHARACTERS)}${where}`
    case 'tool_result': {
      const of = event.result.callId === null ? '' : ` of ${terminalSafe(event.result.callId, 60)}`
      const failed = event.result.isError === true ? ' (error)' : ''
      return `#${event.index} result${of}${failed}: "${terminalSafe(event.result.content ?? '', MOST_LINE_CHARACTERS)}"${where}`
    }
    case 'assistant_text':
    case 'assistant_thinking':
    case 'synthetic_injection':
      return `#${event.index} ${event.family.replace('assistant_', '')}: "${terminalSafe(event.text, MOST_LINE_CHARACTERS)}"${where}`
    case 'opaque':
      return `#${event.index} unread record${event.opaque.eventType === null ? '' : ` ${terminalSafe(event.opaque.eventType, 60)}`}${where}`
    default:
      return `#${event.index} ${event.family}${where}`
  }
}

/** Keeps the lines of the wanted events as the reader passes them. */
class CitedEventsSink implements IrSink {
  readonly lines = new Map<number, string>()

  constructor(
    private readonly wanted: ReadonlySet<number>,
    private readonly withLine: boolean,
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

/** A reader into a sink of the wanted events, for a transcript opened as `read` says. */
function citedReader(read: OpenedTranscript<unknown>['read'], wanted: readonly number[], maxLineBytes: number | undefined): { reader: TranscriptReader; sink: CitedEventsSink } {
  // A conversion's lines are those of the stream it became: no line is named for its events.
  const sink = new CitedEventsSink(new Set(wanted), read.origin === undefined)
  return { sink, reader: new TranscriptReader(sink, { ...read, ...(maxLineBytes === undefined ? {} : { maxLineBytes }) }) }
}

/** The lines of the wanted events, in the order cited, once the reader has seen them or the transcript has ended. */
function linesOf(reader: TranscriptReader, sink: CitedEventsSink, wanted: readonly number[]): string[] {
  // What the reader holds until the stream ends (a last line with no newline) is handed over at its end.
  if (sink.lines.size < wanted.length && !reader.stopped) reader.end()
  return wanted.flatMap((index) => sink.lines.get(index) ?? [])
}

/**
 * The first cited events of a transcript named by path or held as text, each as a line, in the
 * order cited; empty for events handed over in memory (the check consumed them) or a transcript
 * that no longer reads as it did (changed since: the report is what names that). A file is
 * streamed only as far as the last event wanted.
 */
export async function citedEventLines(transcript: TraceTranscript, indices: readonly number[], maxLineBytes?: number): Promise<string[]> {
  const named = namedTranscript(transcript)
  if (named?.path === undefined) return citedEventLinesSync(transcript, indices, maxLineBytes)
  const wanted = indices.slice(0, MOST_EVENTS_SPELT_OUT)
  if (wanted.length === 0) return []
  try {
    const opened = openTranscriptPath(named.path, named.from, named.label)
    const { reader, sink } = citedReader(opened.read, wanted, maxLineBytes)
    for await (const chunk of opened.bytes) {
      reader.push(chunk)
      if (reader.stopped || sink.lines.size === wanted.length) break
    }
    return linesOf(reader, sink, wanted)
  } catch {
    // Only detail: the failure stands on the report's verdict and indices without it.
    return []
  }
}

/** As `citedEventLines`, read whole and synchronously: what a matcher's message can do. */
export function citedEventLinesSync(transcript: TraceTranscript, indices: readonly number[], maxLineBytes?: number): string[] {
  const wanted = indices.slice(0, MOST_EVENTS_SPELT_OUT)
  const named = namedTranscript(transcript)
  if (wanted.length === 0 || named === undefined) return []
  try {
    const opened = named.path !== undefined ? openTranscriptPathSync(named.path, named.from, named.label) : openTranscriptText(named.text as string | Uint8Array, named.from, named.label)
    const { reader, sink } = citedReader(opened.read, wanted, maxLineBytes)
    reader.push(opened.bytes)
    return linesOf(reader, sink, wanted)
  } catch {
    return []
  }
}
