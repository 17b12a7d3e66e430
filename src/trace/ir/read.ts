import { createHash, type Hash } from 'node:crypto'
import { canonicalEventObject } from '../../events/canonical-object.js'
import { EVENT_FORMAT } from '../../events/format.js'
import type { Emission } from '../../events/types.js'
import { writeEventLine } from '../../events/write.js'
import { LineSplitter, type LineReceiver, type RawLine } from '../../events/lines.js'
import { EnvelopeScan, scanEnvelope } from './line-scan.js'
import { emissionPassingOf, Passing, passingOf, readWholeByName } from './pass-over.js'
import type { TraceRefusal } from '../errors.js'
import { IrEmitter } from './emitter.js'
import { MetaharnessIrReader } from './event-stream.js'
import { isBlankLine, isObject } from './json.js'
import { CLAUDE_CODE_STREAM_JSON, StreamJsonIrReader } from './stream-json.js'
import type { AdapterRef, IrReads, IrSink, StreamClose } from './types.js'
import { describeJsonSyntaxError } from '../../util/json-syntax.js'

/** Which wire a transcript is written in, as a refusal names it. */
export type TranscriptFormat = typeof EVENT_FORMAT | 'claude-code/stream-json'

const EVENT_FORMAT_BYTES = Buffer.from(EVENT_FORMAT, 'utf8')

/** Default line limit: far above any real record, well below what one JSON.parse may cost. */
export const DEFAULT_TRACE_MAX_LINE_BYTES = 8 * 1024 * 1024

/**
 * What the report says a converted transcript is: the original record's digest and the adapter
 * chain that turned it into the event stream the reader read.
 */
export interface TranscriptOrigin {
  /** e.g. `{ name: 'codex/rollout-jsonl via metaharness/event-stream', written_against: ['metaharness.event/1'] }`. */
  adapter: AdapterRef
  /** sha256 of the original file's bytes; asked for once the read has ended. */
  digest(): string
  /** The format the original was read in (`claude-session-jsonl`): a refusal names it, not the stream it became. */
  format?: string
}

export interface TranscriptReadOptions {
  /** Lines longer than this are refused (`TRACE-ADAPT-001` at `line[N]`) and never held. Default: 8 MiB. */
  maxLineBytes?: number
  /** How many refusals are listed; the count stays exact. Default: 100. */
  maxRefusals?: number
  /**
   * The reader to use instead of choosing from the first non-blank line: `metaharness.event/1`
   * (whose tag every line must then carry) or `claude-code/stream-json`. Default: chosen as upstream chooses.
   */
  format?: TranscriptFormat
  /**
   * Set when the bytes pushed are an event stream an adapter converted from another record: the
   * report's `transcript_digest` and `adapter` then name the original, not the conversion.
   */
  origin?: TranscriptOrigin
  /**
   * The sha256 (hex) of the bytes pushed, when the caller takes it as they are read (on another
   * thread: `readFileHashedOffThread`); the reader then does not hash them. Asked for once the
   * read has ended. Default: the reader hashes what it is pushed.
   */
  bytesDigest?: () => string
}

/**
 * Events an adapter produced, handed to the reader as they are: what a conversion pushes instead
 * of the bytes the event writer would print. `run` is the run id those bytes would carry.
 */
export interface EmissionBatch {
  readonly run: string
  readonly emissions: readonly Emission[]
}

/** What a reader is fed: a transcript's bytes, or (for a conversion) its events. */
export type TranscriptChunk = Uint8Array | string | EmissionBatch

/** Whether a chunk is a batch of events rather than bytes. */
export function isEmissionBatch(chunk: TranscriptChunk): chunk is EmissionBatch {
  return typeof chunk === 'object' && !(chunk instanceof Uint8Array)
}

/** What a read established, once the transcript has ended. */
export type TranscriptReadResult =
  | {
      ok: true
      /** sha256 of the transcript's bytes, as `sha256sum` prints it. */
      digest: string
      format: TranscriptFormat
      adapter: AdapterRef
      closure: StreamClose | null
      events: number
    }
  | {
      ok: false
      digest: string
      /** The format it was refused as: the reader's, or for a conversion the original's (`codex/rollout-jsonl`). */
      format: string
      refusals: TraceRefusal[]
      total: number
    }

/**
 * Reads a transcript pushed in chunks, holding one line at a time: splits it into lines (numbered
 * from 1, blank lines counted), hashes its bytes, picks the reader from the first non-blank line
 * (`format: "metaharness.event/1"` → the event-stream reader, anything else → Claude Code
 * stream-json, as upstream decides), and hands IR events to the sink as they are read. Every bad
 * line is refused with its number; once one is, no further IR is produced.
 *
 * A sink that says what it reads (`IrSink.reads`) lets an event stream's lines it cannot use be
 * passed over: each is still proven to be JSON and to carry the format tag, from its bytes, but
 * is never decoded or built (`line-scan.ts`, `pass-over.ts`).
 */
export class TranscriptReader implements LineReceiver {
  private readonly splitter: LineSplitter
  private readonly hash: Hash = createHash('sha256')
  private readonly emitter: IrEmitter
  private readonly maxRefusals: number
  private readonly maxLineBytes: number
  private readonly forced: TranscriptFormat | undefined
  private readonly origin: TranscriptOrigin | undefined
  private readonly bytesDigest: (() => string) | undefined
  private reader: MetaharnessIrReader | StreamJsonIrReader | null = null
  private format: TranscriptFormat | null = null
  private readonly refusals: TraceRefusal[] = []
  private refusalCount = 0
  private endless = false
  /** How many events `pushEmissions` has read: the line numbers their printed lines would have. */
  private emitted = 0
  private readonly reads: IrReads | undefined
  private readonly receiver: LineReceiver
  private readonly scan = new EnvelopeScan()
  private passedOver = 0

  constructor(
    private readonly sink: IrSink,
    options: TranscriptReadOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_TRACE_MAX_LINE_BYTES
    this.maxRefusals = options.maxRefusals ?? 100
    this.forced = options.format
    this.origin = options.origin
    this.bytesDigest = options.bytesDigest
    this.splitter = new LineSplitter({ maxLineBytes: this.maxLineBytes })
    this.emitter = new IrEmitter(sink)
    this.reads = sink.reads
    if (this.reads !== undefined) this.scan.readWholeOnEvent = readWholeByName(this.reads)
    // Without reads every line is decoded; the receiver without `passOver` says so to the splitter.
    this.receiver = this.reads === undefined ? { line: (raw) => this.line(raw) } : this
  }

  /** How many lines (or converted events) were passed over unread: proven well-formed, never decoded or built. */
  get linesPassedOver(): number {
    return this.passedOver
  }

  push(chunk: TranscriptChunk): void {
    if (this.endless) return
    if (isEmissionBatch(chunk)) {
      this.pushEmissions(chunk)
      return
    }
    if (this.bytesDigest === undefined) this.hash.update(chunk)
    this.splitter.pushTo(chunk, this.receiver)
    if (this.splitter.runningOn) {
      this.endless = true
      this.refuse('TRACE-ADAPT-001', 'transcript', `a line runs on past twice the reader's limit of ${this.maxLineBytes} bytes with no newline (a source that may never end): reading stopped`)
    }
  }

  /**
   * Reads events as the lines the event writer would print for them (`seq` from 1, one line each)
   * without printing them: each becomes the object `JSON.parse` would read from its line. An event
   * only its line can answer for (see `canonicalEventObject`) is printed and read as a line. The
   * bytes are not hashed: the digest of a conversion is its original's (`origin`), and events
   * without an origin are written as lines by their caller.
   */
  private pushEmissions(batch: EmissionBatch): void {
    if (this.origin === undefined || this.forced !== EVENT_FORMAT) {
      // Without an origin the digest is of the printed bytes, so they are printed and read.
      for (const emission of batch.emissions) {
        this.emitted += 1
        this.push(writeEventLine(this.emitted, batch.run, emission))
      }
      return
    }
    const reader = this.detect(undefined) as MetaharnessIrReader
    const reads = this.reads
    for (const emission of batch.emissions) {
      this.emitted += 1
      const seq = this.emitted
      // An event the sink cannot use is passed over unbuilt, as its printed line would be.
      if (reads !== undefined && this.refusalCount === 0) {
        const passing = emissionPassingOf(emission, batch.run, reads, this.maxLineBytes)
        if (passing !== Passing.Read) {
          this.passed(reader, passing, seq, reads.clock && typeof emission.at === 'string' ? emission.at : null)
          continue
        }
      }
      const value = canonicalEventObject(seq, batch.run, emission, this.maxLineBytes)
      if (value === undefined) {
        const text = writeEventLine(seq, batch.run, emission).slice(0, -1)
        const bytes = Buffer.byteLength(text)
        this.line(bytes > this.maxLineBytes ? { number: seq, terminated: true, overLimitBytes: bytes } : { number: seq, terminated: true, text })
        continue
      }
      if (this.refusalCount > 0) continue
      // The opaque fallback digests the raw line; only then is it printed.
      reader.pushValue(value, seq, () => writeEventLine(seq, batch.run, emission).slice(0, -1))
    }
  }

  /** Set once the source is refused as endless; the caller should stop pushing and call `end`. */
  get stopped(): boolean {
    return this.endless
  }

  /** Ends the read: the sink gets `end()` only when the transcript was readable. */
  end(): TranscriptReadResult {
    if (!this.endless) this.splitter.endTo(this.receiver)
    const own = this.bytesDigest === undefined ? this.hash.digest('hex') : this.bytesDigest()
    const digest = this.origin ? this.origin.digest() : own
    const format = this.format ?? this.forced ?? 'claude-code/stream-json'
    if (this.refusalCount === 0) {
      const empty =
        this.reader === null ||
        (this.reader instanceof MetaharnessIrReader ? this.reader.lineCount === 0 : this.emitter.count === 0)
      if (empty) this.refuse('TRACE-ADAPT-002', 'transcript', this.nothingToJudge(format))
    }
    // A conversion is refused as the format its original was read in, not as the stream it became.
    if (this.refusalCount > 0) return { ok: false, digest, format: this.origin?.format ?? format, refusals: this.refusals, total: this.refusalCount }
    const reader = this.reader as MetaharnessIrReader | StreamJsonIrReader
    const closure = reader.closure()
    const adapter = this.origin ? this.origin.adapter : reader.adapter
    this.sink.end({ adapter, closure, closureMarkers: reader.closureMarkers, subagentsUnseen: reader.subagentsUnseen, processesUnseen: reader.processesUnseen, nestedUnseen: reader.nestedUnseen, callsElsewhereFrom: reader.callsElsewhere.from, requestsUnmarked: reader.requestsUnmarked, subagentUsageApart: reader.subagentUsageApart, subagentRequestsUnseen: reader.subagentRequestsUnseen, refusedCalls: reader.refusedCalls, events: this.emitter.count })
    return { ok: true, digest, format, adapter, closure, events: this.emitter.count }
  }

  /** Why a transcript of no events is refused: for a conversion, what its original held. */
  private nothingToJudge(format: TranscriptFormat): string {
    const original = this.origin?.format
    // A conversion that gave no event read no record of a run: a Claude session file of summaries alone.
    if (original !== undefined) return `the transcript holds no events at all: nothing in it is a record of a run as ${original} reads one (no record, or only summaries and snapshots): there is nothing to judge`
    return `${format === EVENT_FORMAT ? 'the event stream' : 'the transcript'} holds no events at all: there is nothing to judge`
  }

  private refuse(code: TraceRefusal['code'], location: string, message: string): void {
    this.refusalCount += 1
    if (this.refusals.length < this.maxRefusals) this.refusals.push({ code, location, message })
  }

  /**
   * Offered a whole UTF-8 line's bytes before they are decoded: passes it over when it is an event
   * stream line the sink cannot use. Only while nothing is refused: after a refusal every line is
   * read whole, so each refusal is listed as a full read lists it.
   */
  passOver(source: Buffer, start: number, end: number, number: number): boolean {
    const reads = this.reads
    const reader = this.reader
    if (reads === undefined || this.refusalCount > 0 || !(reader instanceof MetaharnessIrReader)) return false
    const scan = this.scan
    if (!scanEnvelope(source, start, end, scan) || !scan.formatIs(EVENT_FORMAT_BYTES)) return false
    const passing = passingOf(scan, reads)
    if (passing === Passing.Read) return false
    this.passed(reader, passing, number, passing === Passing.Numbered && reads.clock ? scan.at() : null)
    return true
  }

  /** What passing over one line leaves behind (see `Passing`). */
  private passed(reader: MetaharnessIrReader, passing: Passing, line: number, at: string | null): void {
    reader.passedLine()
    if (passing === Passing.Numbered) this.emitter.pass(line, at)
    else if (passing === Passing.Decided) reader.passedDecision()
    this.passedOver += 1
  }

  /** Reads one line the splitter decoded (or could not): every line the scan did not pass over. */
  line(raw: RawLine): void {
    const number = raw.number
    if (raw.overLimitBytes !== undefined) {
      this.detect(undefined)
      this.refuse('TRACE-ADAPT-001', `line[${number}]`, `line ${number} is ${raw.overLimitBytes} bytes, over the reader's limit of ${this.maxLineBytes} bytes`)
      return
    }
    const text = raw.text
    if (text === undefined) {
      this.detect(undefined)
      this.refuse('TRACE-ADAPT-001', `line[${number}]`, `line ${number} is not UTF-8`)
      return
    }
    if (isBlankLine(text)) return
    let value: unknown
    let parsed = true
    try {
      value = JSON.parse(text)
    } catch (error) {
      parsed = false
      this.detect(undefined)
      this.refuse('TRACE-ADAPT-001', `line[${number}]`, `line ${number} is not JSON: ${describeJsonSyntaxError(error)}`)
    }
    if (!parsed) return
    const reader = this.detect(value)
    if (reader instanceof MetaharnessIrReader) {
      const tag = isObject(value) ? value['format'] : undefined
      if (tag !== EVENT_FORMAT) {
        this.refuse(
          'TRACE-ADAPT-001',
          `line[${number}]`,
          `line ${number} carries the format tag \`${typeof tag === 'string' ? tag : '<none>'}\` and this reader reads \`${EVENT_FORMAT}\`: the tag is on every line so a truncated capture stays self-describing, and guessing at an untagged line is how two wires become one silently`,
        )
        return
      }
      if (this.refusalCount === 0) reader.pushValue(value as Record<string, unknown>, number, text)
      return
    }
    if (this.refusalCount === 0) reader.pushValue(value, number, text)
  }

  /** The reader, chosen once from the first non-blank line's `format` tag (or named by the caller). */
  private detect(value: unknown): MetaharnessIrReader | StreamJsonIrReader {
    if (this.reader) return this.reader
    const eventStream = this.forced === undefined ? isObject(value) && value['format'] === EVENT_FORMAT : this.forced === EVENT_FORMAT
    if (eventStream) {
      this.format = EVENT_FORMAT
      this.reader = new MetaharnessIrReader(this.emitter)
    } else {
      this.format = CLAUDE_CODE_STREAM_JSON.name as TranscriptFormat
      this.reader = new StreamJsonIrReader(this.emitter)
    }
    return this.reader
  }
}

/** Reads a whole byte stream (a file, stdin) through a `TranscriptReader`. */
export async function readTranscriptStream(source: AsyncIterable<TranscriptChunk>, sink: IrSink, options: TranscriptReadOptions = {}): Promise<TranscriptReadResult> {
  const reader = new TranscriptReader(sink, options)
  for await (const chunk of source) {
    reader.push(chunk)
    if (reader.stopped) break
  }
  return reader.end()
}
