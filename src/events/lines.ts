import { isUtf8 } from 'node:buffer'

/**
 * Splitting a byte stream into lines the way upstream's readers do (`str::lines`): split on
 * `\n`, drop one trailing `\r`, count every line (blank ones too) from 1, and never buffer more
 * than one line — a line over the limit is reported by length, not held.
 */

/** One line: its decoded text when the bytes are UTF-8, else its raw bytes. */
export interface RawLine {
  /** 1-based, counting blank lines. */
  readonly number: number
  /** Whether a `\n` ended the line; false only for a final unterminated line. */
  readonly terminated: boolean
  /** The line without its terminator, when its bytes are UTF-8. */
  readonly text?: string
  /** The line's bytes, set only when they are not UTF-8 (the text is then absent). */
  readonly bytes?: Uint8Array
  /**
   * Set when the line was longer than `maxLineBytes`: the bytes read when it crossed the limit (the
   * line is at least this long). It is reported then, not at its end, so a source with no newline
   * (`/dev/zero`) is refused at once; the rest of it, up to its newline, is skipped.
   */
  readonly overLimitBytes?: number
}

/** The bytes of a line as read (for digests), whether it was decoded or not. */
export function rawLineBytes(line: RawLine): Uint8Array {
  return line.bytes ?? Buffer.from(line.text ?? '', 'utf8')
}

/** Default: 64 MiB, well above any real record and well below the memory a reader may use. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024

export interface SplitOptions {
  /** Lines longer than this are reported by length and skipped. Default: 64 MiB. */
  maxLineBytes?: number
}

function trimCarriageReturn(text: string): string {
  return text.charCodeAt(text.length - 1) === 0x0d ? text.slice(0, -1) : text
}

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk)
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
}

/**
 * What `LineSplitter.pushTo` hands each line to, in order. `passOver`, when there, is offered the
 * bytes of a whole line already known to be UTF-8 first (`source[start, end)`: without its newline,
 * with a final `\r` if it has one); returning true means the receiver has dealt with the line, and
 * it is never decoded. Lines that straddle two chunks are always decoded.
 */
export interface LineReceiver {
  line(line: RawLine): void
  passOver?(source: Buffer, start: number, end: number, number: number): boolean
}

/** Collects lines into an array: what `push` and `end` return. */
class LineCollector implements LineReceiver {
  lines: RawLine[] = []
  line(line: RawLine): void {
    this.lines.push(line)
  }
}

/**
 * The splitting state machine, synchronous so a caller can process a whole chunk's lines without
 * an await per line: `push` each chunk, then `end` once. Whole runs of lines that are valid UTF-8
 * are decoded in one call; only a region holding bad bytes is decoded line by line.
 */
export class LineSplitter {
  private pending: Buffer[] = []
  private pendingBytes = 0
  // Inside a line already reported over the limit: its bytes are dropped up to its newline.
  private skipping = false
  private skipped = 0
  private number = 0
  private readonly maxLineBytes: number

  constructor(options: SplitOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  }

  push(chunk: Uint8Array | string): RawLine[] {
    const collector = new LineCollector()
    this.pushTo(chunk, collector)
    return collector.lines
  }

  /**
   * As `push`, handing each line to `lines` as it is split. Nothing of `chunk` is held once this
   * returns (a line it leaves unfinished is copied), so its source may reuse the memory.
   */
  pushTo(chunk: Uint8Array | string, lines: LineReceiver): void {
    const buffer = toBuffer(chunk)
    const first = buffer.indexOf(0x0a)
    if (first === -1) {
      this.accumulate(buffer, lines)
      return
    }
    // The line that started in an earlier chunk ends here.
    this.accumulate(buffer.subarray(0, first), lines)
    this.takePending(true, lines)
    const last = buffer.lastIndexOf(0x0a)
    if (last > first) this.splitRegion(buffer.subarray(first + 1, last), lines)
    this.accumulate(buffer.subarray(last + 1), lines)
  }

  end(): RawLine[] {
    const collector = new LineCollector()
    this.endTo(collector)
    return collector.lines
  }

  /** As `end`, handing the last line to `lines`. */
  endTo(lines: LineReceiver): void {
    if (this.pendingBytes > 0) this.takePending(false, lines)
    this.skipping = false
  }

  /**
   * Whether the line being skipped has run on for another `maxLineBytes` with no newline: a source
   * that may never end (`/dev/zero`); a reader that only counts lines after it can stop here.
   */
  get runningOn(): boolean {
    return this.skipping && this.skipped > this.maxLineBytes
  }

  private accumulate(piece: Buffer, lines: LineReceiver): void {
    if (this.skipping) {
      this.skipped += piece.length
      return
    }
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.number += 1
      lines.line({ number: this.number, terminated: false, overLimitBytes: this.pendingBytes + piece.length })
      this.pending = []
      this.pendingBytes = 0
      this.skipping = true
      this.skipped = 0
    } else if (piece.length > 0) {
      // A copy: the chunk the piece came from is its source's again once `pushTo` returns.
      this.pending.push(Buffer.from(piece))
      this.pendingBytes += piece.length
    }
  }

  // Complete lines between two newlines of one chunk, without their final newline.
  private splitRegion(region: Buffer, lines: LineReceiver): void {
    if (region.length <= this.maxLineBytes && isUtf8(region)) {
      if (lines.passOver !== undefined) {
        this.offerRegion(region, lines)
        return
      }
      for (const text of region.toString('utf8').split('\n')) {
        this.number += 1
        lines.line({ number: this.number, terminated: true, text: trimCarriageReturn(text) })
      }
      return
    }
    let start = 0
    for (;;) {
      const newline = region.indexOf(0x0a, start)
      const end = newline === -1 ? region.length : newline
      this.accumulate(region.subarray(start, end), lines)
      this.takePending(true, lines)
      if (newline === -1) return
      start = newline + 1
    }
  }

  // A UTF-8 region offered line by line: only the lines the receiver does not pass over are decoded.
  private offerRegion(region: Buffer, lines: LineReceiver): void {
    const passOver = lines.passOver as NonNullable<LineReceiver['passOver']>
    let start = 0
    for (;;) {
      const newline = region.indexOf(0x0a, start)
      const end = newline === -1 ? region.length : newline
      this.number += 1
      if (!passOver.call(lines, region, start, end, this.number)) {
        const stop = end > start && region[end - 1] === 0x0d ? end - 1 : end
        lines.line({ number: this.number, terminated: true, text: region.toString('utf8', start, stop) })
      }
      if (newline === -1) return
      start = newline + 1
    }
  }

  // Ends the pending line; a line already reported over the limit ends without a second report.
  private takePending(terminated: boolean, lines: LineReceiver): void {
    if (this.skipping) {
      this.skipping = false
      return
    }
    this.number += 1
    let bytes = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending, this.pendingBytes)
    if (bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1)
    lines.line(
      isUtf8(bytes) ? { number: this.number, terminated, text: bytes.toString('utf8') } : { number: this.number, terminated, bytes: Uint8Array.from(bytes) },
    )
    this.pending = []
    this.pendingBytes = 0
  }
}

/** Splits a byte stream into batches of lines, one batch per chunk read. */
export async function* splitLineBatches(
  source: AsyncIterable<Uint8Array | string>,
  options: SplitOptions = {},
): AsyncGenerator<RawLine[]> {
  const splitter = new LineSplitter(options)
  for await (const chunk of source) {
    const lines = splitter.push(chunk)
    if (lines.length > 0) yield lines
  }
  const last = splitter.end()
  if (last.length > 0) yield last
}

/** Splits a byte stream into lines, holding at most one line in memory. */
export async function* splitLines(
  source: AsyncIterable<Uint8Array | string>,
  options: SplitOptions = {},
): AsyncGenerator<RawLine> {
  for await (const batch of splitLineBatches(source, options)) yield* batch
}

/** Splits text already in memory, with the same numbering as `splitLines`. */
export function splitTextLines(text: string): string[] {
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines.map(trimCarriageReturn)
}

/** Decodes bytes as UTF-8, or returns `undefined` when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  const buffer = toBuffer(bytes)
  return isUtf8(buffer) ? buffer.toString('utf8') : undefined
}

/** Whether a decoded line holds only whitespace: blank lines emit nothing but still count. */
export function isBlank(text: string): boolean {
  return text.trim().length === 0
}
