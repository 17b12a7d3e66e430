import { splitTextLines } from '../../src/events/lines.js'
import { refuseCompressed } from './compressed.js'
import { detectCandidates, type Detection } from './detect.js'

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
  const iterator = stream[Symbol.asyncIterator]()
  const head: Buffer[] = []
  let size = 0
  let ended = false
  const pull = async (): Promise<boolean> => {
    const next = await iterator.next()
    if (next.done) {
      ended = true
      return false
    }
    const chunk = Buffer.from(next.value)
    head.push(chunk)
    size += chunk.length
    return true
  }
  while (size < PEEK_BYTES && (await pull()));
  const read = Buffer.concat(head)
  refuseCompressed(read, source)
  const text = read.toString('utf8')
  const lines = splitTextLines(text)
  // A read-ahead that stopped mid-line must not let a torn line decide.
  if (!ended) lines.pop()
  let detection = detectCandidates(lines)
  if (detection.outcome !== 'detected' && !ended && text.trimStart().startsWith('{')) {
    while (await pull());
    detection = detectCandidates(splitTextLines(Buffer.concat(head).toString('utf8')))
  }
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield* head
    if (ended) return
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value
  }
  return { detection, replay }
}
