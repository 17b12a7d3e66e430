import { splitTextLines } from '../../src/events/lines.js'
import { refuseCompressed } from './compressed.js'
import { detectCandidates, type Detection } from './detect.js'
import { ReadAhead } from './read-ahead.js'

/** How much of a stream is read ahead to detect its format. */
export const PEEK_BYTES = 64 * 1024

/** A stream whose head was read ahead to detect its format. */
export interface PeekedStream {
  /** What the head shows the format to be. */
  readonly detection: Detection
  /** The whole stream from its first byte, once: the head read ahead, then the rest as it comes. */
  replay(): AsyncGenerator<Uint8Array>
}

/**
 * Reads a stream with no path (stdin, a pipe) far enough to detect its format — its first 64 KiB,
 * or the whole of a JSON document that does not fit — and hands it back whole, so a stream is
 * detected as a file is without being read twice. A compressed stream is refused
 * (`VH_TRANSCRIPT_COMPRESSED`, naming `source`).
 */
export async function peekTranscriptStream(stream: AsyncIterable<Uint8Array | string>, source = 'stdin'): Promise<PeekedStream> {
  const ahead = new ReadAhead(stream)
  await ahead.fill(PEEK_BYTES)
  const read = ahead.head()
  refuseCompressed(read, source)
  const text = read.toString('utf8')
  const lines = splitTextLines(text)
  // A read-ahead that stopped mid-line must not let a torn line decide.
  if (!ahead.ended) lines.pop()
  let detection = detectCandidates(lines)
  if (detection.outcome !== 'detected' && !ahead.ended && text.trimStart().startsWith('{')) {
    await ahead.fill(Infinity)
    detection = detectCandidates(splitTextLines(ahead.head().toString('utf8')))
  }
  return { detection, replay: () => ahead.replay() }
}
