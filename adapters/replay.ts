import { rawLineBytes, splitLineBatches, splitTextLines, type SplitOptions } from '../src/events/lines.js'
import { EventStreamWriter } from '../src/events/write.js'
import { ReplayError } from './errors.js'
import { ReadWatch } from './transcript/read-watch.js'
import type { LineProjector } from './types.js'

/**
 * Replays a whole record held in memory: each line pushed in order (blank lines count), then
 * `finish()`, each event written with its `\n`. The exact string a C2 vector compares.
 */
export function replayText(projector: LineProjector, text: string, run: string): string {
  const writer = new EventStreamWriter(run)
  let out = ''
  splitTextLines(text).forEach((line, index) => {
    for (const emission of projector.pushLine(line, index + 1)) out += writer.write(emission)
  })
  for (const emission of projector.finish()) out += writer.write(emission)
  return out
}

export interface ReplayStreamOptions extends SplitOptions {
  /** Names the input in errors (`file:line`). */
  source?: string
  /** Lines are batched into chunks of about this many characters. Default: 64 KiB. */
  chunkChars?: number
  /** Refuse (`VH_NOTHING_READ`) a record nothing of which was read: empty, or only opaque lines. Default: false, as upstream replays. */
  requireRead?: boolean
  /** The adapter's name for the sentence of that refusal. */
  readerName?: string
}

// Held back while nothing has been read, so a refused replay has written (almost) nothing.
const HOLD_UNREAD_CHARS = 1 << 20

/**
 * Replays a record of any size in one pass, holding one line at a time. Yields the event stream
 * in chunks of whole lines. A line that is not UTF-8 becomes opaque; one over the line limit is
 * refused with its location.
 */
export async function* replayStream(
  projector: LineProjector,
  source: AsyncIterable<Uint8Array | string>,
  run: string,
  options: ReplayStreamOptions = {},
): AsyncGenerator<string> {
  const writer = new EventStreamWriter(run)
  const chunkChars = options.chunkChars ?? 64 * 1024
  const watch = options.requireRead ? new ReadWatch() : undefined
  let out = ''
  for await (const batch of splitLineBatches(source, options)) {
    for (const raw of batch) {
      if (raw.overLimitBytes !== undefined) {
        const where = options.source ? `${options.source}:${raw.number}` : `line ${raw.number}`
        throw new ReplayError('VH_LINE_TOO_LONG', where, `the line is ${raw.overLimitBytes} bytes, over the reader's limit`)
      }
      const emissions =
        raw.text === undefined ? projector.pushUndecodable(rawLineBytes(raw), raw.number) : projector.pushLine(raw.text, raw.number)
      for (const emission of emissions) {
        out += writer.write(emission)
        watch?.observe(emission)
      }
    }
    if (out.length >= chunkChars && (watch === undefined || watch.read || out.length >= HOLD_UNREAD_CHARS)) {
      yield out
      out = ''
    }
  }
  for (const emission of projector.finish()) {
    out += writer.write(emission)
    watch?.observe(emission)
  }
  if (watch?.nothingRead) throw new ReplayError('VH_NOTHING_READ', options.source ?? 'stdin', watch.sentence(options.readerName ?? 'this adapter\'s record'))
  if (out.length > 0) yield out
}
