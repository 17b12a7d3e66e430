import '../builtin-formats.js'
import { createReadStream, existsSync, openSync, readSync, closeSync, readFileSync, statSync } from 'node:fs'
import { isUtf8 } from 'node:buffer'
import { parseJsonLossless } from '../../src/events/json.js'
import { isBlank, LineSplitter, rawLineBytes, splitLineBatches, splitTextLines, type RawLine } from '../../src/events/lines.js'
import { EventStreamWriter } from '../../src/events/write.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import { findFormat, unknownFormatError, type DocumentFormat, type LineFormat, type TranscriptFormat } from '../formats.js'
import { isObject } from '../shared/fields.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { refuseCompressedFile } from './compressed.js'
import { detectCandidates, detectionRefusal, undetectedFormatError, type Detection } from './detect.js'
import { parseJsonDocument } from './json-document.js'
import { listTranscriptFiles, subagentsAfterParents } from './path-order.js'
import { ReadWatch } from './read-watch.js'

/** How unreadable lines are treated. */
export type LinePolicy =
  /**
   * Reef's directory rules: a line that is not JSON is an error naming its file and line, unless
   * it is the file's last line (a torn tail, kept as `opaque`); a non-object line or a line that
   * is not UTF-8 is always an error.
   */
  | 'reef'
  /** metaharness's stream rules: every unreadable line becomes `opaque`; nothing is refused. */
  | 'lenient'

export interface ReadTranscriptOptions {
  /** The format's name or alias. Default: detected from the first lines. */
  from?: string
  /** The run id written on every line. Default: `convert`. */
  run?: string
  /** Facts the record does not carry (harness version, model, attestation…). */
  seam?: Omit<SeamOptions, 'run'>
  /** Default: `reef` for a directory, `lenient` for a single file or a stream. */
  lines?: LinePolicy
  /** Lines longer than this are refused. Default: 64 MiB. */
  maxLineBytes?: number
  /**
   * Refuse (`VH_NOTHING_READ`) an input nothing of which was read — every record opaque, or only a
   * session opening built from nothing — instead of writing it. Output is held back until something
   * is read (up to 4 MiB), so a refused conversion writes nothing. Default: false.
   */
  requireRead?: boolean
  /**
   * Called with every byte of the input files as they are read, in reading order: a caller that
   * needs the original's digest takes it in the same pass. Default: none.
   */
  onSourceBytes?: (chunk: Uint8Array) => void
}

/** How much converted text is held back while nothing has been read yet. */
// 4 MiB: enough that a refused conversion has written nothing in practice, little enough to hold in memory.
const HOLD_UNREAD_CHARS = 4 * 1024 * 1024

const DETECT_BYTES = 64 * 1024
/** The largest JSON document read whole to detect its format (larger ones need --from). */
const DETECT_DOCUMENT_BYTES = 64 * 1024 * 1024

function resolveFormat(name: string): TranscriptFormat {
  const format = findFormat(name)
  if (!format) throw unknownFormatError(name)
  return format
}

/** The file's first bytes as text, and whether they were all of it. */
function headOf(path: string): { text: string; whole: boolean } {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(DETECT_BYTES)
    const read = readSync(fd, buffer, 0, DETECT_BYTES, 0)
    // Whether the file went on is a question of bytes: text with multi-byte characters is shorter.
    return { text: buffer.subarray(0, read).toString('utf8'), whole: read < DETECT_BYTES }
  } finally {
    closeSync(fd)
  }
}

/**
 * Weighs one file's first 64 KiB against every format (see `Detection`), reading the whole file
 * only for a JSON document that did not fit.
 */
export function detectTranscriptCandidates(path: string): Detection {
  const head = headOf(path)
  const lines = splitTextLines(head.text)
  // The head may end mid-line; a torn last line must not decide anything.
  if (!head.whole) lines.pop()
  const detection = detectCandidates(lines)
  const opening = head.text.trimStart()[0]
  if (detection.outcome === 'detected' || head.whole || (opening !== '{' && opening !== '[')) return detection
  // A JSON document is read whole to be detected, but only one of a size a document could be.
  if (statSync(path).size > DETECT_DOCUMENT_BYTES) return detection
  return detectCandidates(splitTextLines(readFileSync(path, 'utf8')))
}

/**
 * Detects the format of one file from its first 64 KiB, reading the whole file only for a JSON
 * document that did not fit. Undefined when no format fits; a file two formats claim, or one no
 * format fits with confidence, is refused (`VH_AMBIGUOUS_FORMAT`, `VH_UNCERTAIN_FORMAT`) naming
 * the candidates.
 */
export function detectTranscriptFile(path: string): TranscriptFormat | undefined {
  const detection = detectTranscriptCandidates(path)
  if (detection.outcome === 'detected') return detection.format
  if (detection.outcome === 'none') return undefined
  throw detectionRefusal(detection, path)
}

/** What a transcript path holds, as the readers will read it. */
export interface TranscriptPlan {
  /** The format named, or detected from the first lines (of the first file, for a directory). */
  readonly format: TranscriptFormat
  /** The files read, in order: the path itself, or a directory's files in Python `Path` order. */
  readonly files: readonly string[]
  readonly policy: LinePolicy
}

/**
 * Decides how a path will be read — its format and files — without reading past the first lines.
 * Throws `TranscriptError` for a missing path, an unknown format name, or a file no format fits.
 */
export function planTranscript(path: string, options: Pick<ReadTranscriptOptions, 'from' | 'lines'> = {}): TranscriptPlan {
  const named = options.from === undefined ? undefined : resolveFormat(options.from)
  if (!existsSync(path)) {
    // Reef: a missing directory is an empty trajectory; without a format there is nothing to say what it would hold.
    if (named) return { format: named, files: [], policy: options.lines ?? 'reef' }
    throw new TranscriptError('VH_TRANSCRIPT_MISSING', path, null, 'no such file or directory')
  }
  if (!statSync(path).isDirectory()) {
    refuseCompressedFile(path)
    const format = named ?? detectTranscriptFile(path)
    if (!format) throw undetectedFormatError(path)
    return { format, files: [path], policy: options.lines ?? 'lenient' }
  }
  if (named) return { format: named, files: directoryFiles(path, named), policy: options.lines ?? 'reef' }
  const candidates = listTranscriptFiles(path, ['.jsonl', '.json'])
  const first = candidates[0]
  if (first === undefined) throw new TranscriptError('VH_TRANSCRIPT_UNDETECTED', path, null, 'the directory holds no .jsonl or .json file to detect a format from; name one with --from')
  const format = detectTranscriptFile(first)
  if (!format) throw undetectedFormatError(first)
  return { format, files: directoryFiles(path, format), policy: options.lines ?? 'reef' }
}

/** A directory's files of one format, in the order the format reads them. */
function directoryFiles(root: string, format: TranscriptFormat): string[] {
  const files = listTranscriptFiles(root, [format.extension])
  return format.kind === 'lines' && format.subagentsFollowParents === true ? subagentsAfterParents(root, files) : files
}

function seamFor(options: ReadTranscriptOptions): SeamOptions {
  return { projection: 'enriched', ...options.seam, run: options.run ?? 'convert' }
}

function parserFor(format: LineFormat): (text: string) => unknown {
  return format.numbers === 'value' ? JSON.parse : parseJsonLossless
}

/**
 * Applies the line policy to one file's lines as they are split, handing records to the
 * projector. Shared by the streaming and the in-memory readers so both read a file alike.
 */
class LineFeeder {
  // Under Reef's rules a bad line is an error unless it turns out to be the last one.
  private pendingBad: { raw: string; number: number } | undefined

  constructor(
    private readonly projector: RecordProjector,
    private readonly file: string,
    private readonly policy: LinePolicy,
    private readonly parse: (text: string) => unknown,
  ) {}

  push(batch: readonly RawLine[]): Emission[] {
    const out: Emission[] = []
    const { projector, file, policy } = this
    for (const raw of batch) {
      if (this.pendingBad) {
        throw new TranscriptError('VH_TRANSCRIPT_CORRUPT_LINE', file, this.pendingBad.number, 'the line is not JSON, and only a torn last line is tolerated')
      }
      if (raw.overLimitBytes !== undefined) {
        throw new TranscriptError('VH_TRANSCRIPT_LINE_TOO_LONG', file, raw.number, `the line is ${raw.overLimitBytes} bytes, over the reader's limit`)
      }
      const text = raw.text
      if (text === undefined) {
        if (policy === 'reef') throw new TranscriptError('VH_TRANSCRIPT_NOT_UTF8', file, raw.number, 'the line is not UTF-8')
        for (const emission of projector.pushUnreadable(rawLineBytes(raw), raw.number)) out.push(emission)
        continue
      }
      if (isBlank(text)) continue
      let value: unknown
      let parsed = true
      try {
        value = this.parse(text)
      } catch {
        parsed = false
      }
      if (!parsed) {
        if (policy === 'reef') {
          this.pendingBad = { raw: text, number: raw.number }
          continue
        }
        for (const emission of projector.pushUnreadable(text, raw.number)) out.push(emission)
        continue
      }
      if (!isObject(value)) {
        if (policy === 'reef') throw new TranscriptError('VH_TRANSCRIPT_NOT_AN_OBJECT', file, raw.number, 'the line is JSON but not an event object')
        for (const emission of projector.pushUnreadable(text, raw.number)) out.push(emission)
        continue
      }
      for (const emission of projector.pushRecord(value, text, raw.number)) out.push(emission)
    }
    return out
  }

  end(): Emission[] {
    // The torn tail of a crash mid-write: tolerated, and still carried as opaque rather than dropped.
    const tail: Emission[] = this.pendingBad ? this.projector.pushUnreadable(this.pendingBad.raw, this.pendingBad.number) : []
    return [...tail, ...this.projector.finish()]
  }
}

/** Feeds one file's lines to a projector, applying the line policy; yields emissions per batch. */
async function* projectLines(
  projector: RecordProjector,
  source: AsyncIterable<Uint8Array | string>,
  file: string,
  policy: LinePolicy,
  maxLineBytes: number | undefined,
  parse: (text: string) => unknown,
): AsyncGenerator<Emission[]> {
  const feeder = new LineFeeder(projector, file, policy, parse)
  for await (const batch of splitLineBatches(source, maxLineBytes === undefined ? {} : { maxLineBytes })) {
    const out = feeder.push(batch)
    if (out.length > 0) yield out
  }
  yield feeder.end()
}

/** As `projectLines`, over bytes already in memory. */
function projectLinesSync(
  projector: RecordProjector,
  bytes: Uint8Array | string,
  file: string,
  policy: LinePolicy,
  maxLineBytes: number | undefined,
  parse: (text: string) => unknown,
): Emission[] {
  const feeder = new LineFeeder(projector, file, policy, parse)
  const splitter = new LineSplitter(maxLineBytes === undefined ? {} : { maxLineBytes })
  return [...feeder.push(splitter.push(bytes)), ...feeder.push(splitter.end()), ...feeder.end()]
}

function decodeDocument(bytes: Uint8Array, file: string): string {
  if (!isUtf8(bytes)) throw new TranscriptError('VH_TRANSCRIPT_NOT_UTF8', file, null, 'the document is not UTF-8')
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
}

function readDocumentFile(file: string, onSourceBytes: ((chunk: Uint8Array) => void) | undefined): string {
  const bytes = readFileSync(file)
  onSourceBytes?.(bytes)
  return decodeDocument(bytes, file)
}

async function* tapped(source: AsyncIterable<Uint8Array>, onSourceBytes: ((chunk: Uint8Array) => void) | undefined): AsyncGenerator<Uint8Array> {
  if (onSourceBytes === undefined) return yield* source
  for await (const chunk of source) {
    onSourceBytes(chunk)
    yield chunk
  }
}

interface Batches {
  batches: AsyncGenerator<Emission[]>
  closure: () => CloseReason | null
}

function lineBatches(format: LineFormat, files: readonly string[], seam: SeamOptions, policy: LinePolicy, options: ReadTranscriptOptions): Batches {
  let closed: CloseReason | null = null
  let allClosed = files.length > 0
  async function* run(): AsyncGenerator<Emission[]> {
    for (const file of files) {
      const projector = format.createProjector(seam)
      yield* projectLines(projector, tapped(createReadStream(file), options.onSourceBytes), file, policy, options.maxLineBytes, parserFor(format))
      closed = projector.closure()
      allClosed &&= closed !== null
    }
  }
  return { batches: run(), closure: () => (allClosed ? closed : null) }
}

function documentBatches(format: DocumentFormat, files: readonly string[], seam: SeamOptions, onSourceBytes: ReadTranscriptOptions['onSourceBytes']): Batches {
  const reader = format.createReader(seam)
  async function* run(): AsyncGenerator<Emission[]> {
    for (const file of files) yield reader.pushDocument(parseJsonDocument(readDocumentFile(file, onSourceBytes), file, format.array?.key))
    yield reader.finish()
  }
  return { batches: run(), closure: () => (files.length > 0 ? reader.closure() : null) }
}

/**
 * The emissions of a transcript (a file, or a directory read by Reef's rules), batch by batch,
 * ending with `stream.closed` where the format proves the run ended.
 */
export async function* readTranscriptBatches(path: string, options: ReadTranscriptOptions = {}): AsyncGenerator<Emission[]> {
  const input = planTranscript(path, options)
  const seam = seamFor(options)
  const { batches, closure } =
    input.format.kind === 'lines'
      ? lineBatches(input.format, input.files, seam, input.policy, options)
      : documentBatches(input.format, input.files, seam, options.onSourceBytes)
  let count = 0
  for await (const batch of batches) {
    count += batch.length
    if (batch.length > 0) yield batch
  }
  const reason = closure()
  if (reason !== null) yield [{ event: 'stream.closed', events: count, reason, run_id: seam.run }]
}

/**
 * Reads any supported transcript — a file or a directory, in any registered format, detected when
 * not named — as `metaharness.event/1` emissions, in order. Throws `TranscriptError` (code, file,
 * line, sentence) for input the format's rules refuse.
 *
 * @example
 * for await (const event of readTranscriptAsEvents('rollout.jsonl', { run: 'r1' })) console.log(event.event)
 */
export async function* readTranscriptAsEvents(path: string, options: ReadTranscriptOptions = {}): AsyncGenerator<Emission> {
  for await (const batch of readTranscriptBatches(path, options)) yield* batch
}

/**
 * The same conversion as exact `metaharness.event/1` text, in chunks of whole lines: what
 * `vitest-harness convert` writes.
 */
export async function* convertTranscript(path: string, options: ReadTranscriptOptions = {}, chunkChars = 64 * 1024): AsyncGenerator<string> {
  const writer = new EventStreamWriter(options.run ?? 'convert')
  const watch = options.requireRead ? new ReadWatch(options.seam) : undefined
  let out = ''
  for await (const batch of readTranscriptBatches(path, options)) {
    for (const emission of batch) {
      out += writer.write(emission)
      watch?.observe(emission)
    }
    if (out.length >= chunkChars && (watch === undefined || watch.read || out.length >= HOLD_UNREAD_CHARS)) {
      yield out
      out = ''
    }
  }
  if (watch?.nothingRead) throw watch.refusal(path, planTranscript(path, options).format.name)
  if (out.length > 0) yield out
}

/**
 * Converts a line-format stream that has no path (stdin): the format must be named or detectable
 * from the first lines the caller already read.
 */
export async function* convertLineStream(
  source: AsyncIterable<Uint8Array | string>,
  formatName: string,
  options: Omit<ReadTranscriptOptions, 'from'> & { source?: string } = {},
): AsyncGenerator<string> {
  const format = resolveFormat(formatName)
  const name = options.source ?? 'stdin'
  const seam = seamFor(options)
  const writer = new EventStreamWriter(seam.run)
  if (format.kind !== 'lines') {
    const chunks: Buffer[] = []
    for await (const chunk of source) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk))
    // Decoded once, whole: a character split across two chunks must not become two bad ones.
    const text = decodeDocument(Buffer.concat(chunks), name)
    const reader = format.createReader(seam)
    const watch = options.requireRead ? new ReadWatch(options.seam) : undefined
    let out = ''
    for (const emission of [...reader.pushDocument(parseJsonDocument(text, name, format.array?.key)), ...reader.finish()]) {
      out += writer.write(emission)
      watch?.observe(emission)
    }
    if (watch?.nothingRead) throw watch.refusal(name, format.name)
    const reason = reader.closure()
    if (reason !== null) out += writer.close(reason)
    yield out
    return
  }
  const projector = format.createProjector(seam)
  const watch = options.requireRead ? new ReadWatch(options.seam) : undefined
  let out = ''
  for await (const batch of projectLines(projector, source, name, options.lines ?? 'lenient', options.maxLineBytes, parserFor(format))) {
    for (const emission of batch) {
      out += writer.write(emission)
      watch?.observe(emission)
    }
    if (out.length >= 64 * 1024 && (watch === undefined || watch.read || out.length >= HOLD_UNREAD_CHARS)) {
      yield out
      out = ''
    }
  }
  if (watch?.nothingRead) throw watch.refusal(name, format.name)
  const reason = projector.closure()
  if (reason !== null) out += writer.close(reason)
  if (out.length > 0) yield out
}

/** One input held in memory: its bytes and the name errors give it. */
interface InMemoryInput {
  readonly name: string
  readonly bytes: Uint8Array | string
}

/** The whole conversion of inputs already in memory: the emissions, then `stream.closed` where the format proves it. */
function convertInMemory(format: TranscriptFormat, inputs: readonly InMemoryInput[], seam: SeamOptions, policy: LinePolicy, maxLineBytes: number | undefined): Emission[] {
  const out: Emission[] = []
  let reason: CloseReason | null = null
  if (format.kind === 'lines') {
    let allClosed = inputs.length > 0
    for (const input of inputs) {
      const projector = format.createProjector(seam)
      for (const emission of projectLinesSync(projector, input.bytes, input.name, policy, maxLineBytes, parserFor(format))) out.push(emission)
      reason = projector.closure()
      allClosed &&= reason !== null
    }
    if (!allClosed) reason = null
  } else {
    const reader = format.createReader(seam)
    for (const input of inputs) {
      const text = typeof input.bytes === 'string' ? input.bytes : decodeDocument(input.bytes, input.name)
      for (const emission of reader.pushDocument(parseJsonDocument(text, input.name, format.array?.key))) out.push(emission)
    }
    for (const emission of reader.finish()) out.push(emission)
    reason = inputs.length > 0 ? reader.closure() : null
  }
  if (reason !== null) out.push({ event: 'stream.closed', events: out.length, reason, run_id: seam.run })
  return out
}

function writeStream(run: string, emissions: readonly Emission[]): string {
  const writer = new EventStreamWriter(run)
  let out = ''
  for (const emission of emissions) out += writer.write(emission)
  return out
}

/**
 * `readTranscriptAsEvents`, read whole and synchronously: for callers that cannot wait (a
 * synchronous matcher). Memory is the whole transcript; prefer the streaming reader elsewhere.
 */
export function readTranscriptEventsSync(path: string, options: ReadTranscriptOptions = {}): Emission[] {
  const plan = planTranscript(path, options)
  const inputs = plan.files.map((file) => ({ name: file, bytes: readFileSync(file) }))
  return convertInMemory(plan.format, inputs, seamFor(options), plan.policy, options.maxLineBytes)
}

/** `convertTranscript`, read whole and synchronously: the exact `metaharness.event/1` text. */
export function convertTranscriptSync(path: string, options: ReadTranscriptOptions = {}): string {
  return writeStream(options.run ?? 'convert', readTranscriptEventsSync(path, options))
}

/**
 * Converts a transcript held in memory (text or bytes) in the named format to the exact
 * `metaharness.event/1` text, as `convert --from FORMAT -` would write it. `source` names it in errors.
 */
export function convertTextSync(text: string | Uint8Array, formatName: string, options: Omit<ReadTranscriptOptions, 'from'> & { source?: string } = {}): string {
  const format = resolveFormat(formatName)
  const seam = seamFor(options)
  return writeStream(seam.run, convertInMemory(format, [{ name: options.source ?? 'the text', bytes: text }], seam, options.lines ?? 'lenient', options.maxLineBytes))
}

/**
 * The emissions of a stream with no path (stdin), batch by batch, ending with `stream.closed`
 * where the format proves the run ended: `convertLineStream` without the writing.
 */
export async function* readStreamBatches(
  source: AsyncIterable<Uint8Array | string>,
  formatName: string,
  options: Omit<ReadTranscriptOptions, 'from'> & { source?: string } = {},
): AsyncGenerator<Emission[]> {
  const format = resolveFormat(formatName)
  const name = options.source ?? 'stdin'
  const seam = seamFor(options)
  if (format.kind !== 'lines') {
    const chunks: Buffer[] = []
    for await (const chunk of source) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk))
    yield convertInMemory(format, [{ name, bytes: Buffer.concat(chunks) }], seam, options.lines ?? 'lenient', options.maxLineBytes)
    return
  }
  const projector = format.createProjector(seam)
  let count = 0
  for await (const batch of projectLines(projector, source, name, options.lines ?? 'lenient', options.maxLineBytes, parserFor(format))) {
    count += batch.length
    if (batch.length > 0) yield batch
  }
  const reason = projector.closure()
  if (reason !== null) yield [{ event: 'stream.closed', events: count, reason, run_id: seam.run }]
}

/** The emissions of a transcript held in memory, in the named format: `convertTextSync` without the writing. */
export function readTextEventsSync(text: string | Uint8Array, formatName: string, options: Omit<ReadTranscriptOptions, 'from'> & { source?: string } = {}): Emission[] {
  const format = resolveFormat(formatName)
  return convertInMemory(format, [{ name: options.source ?? 'the text', bytes: text }], seamFor(options), options.lines ?? 'lenient', options.maxLineBytes)
}
