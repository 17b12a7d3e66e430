import '../builtin-formats.js'
import { createReadStream, existsSync, openSync, readSync, closeSync, readFileSync, statSync } from 'node:fs'
import { isUtf8 } from 'node:buffer'
import { parseJsonLossless } from '../../src/events/json.js'
import { isBlank, rawLineBytes, splitLineBatches, splitTextLines, type RawLine } from '../../src/events/lines.js'
import { EventStreamWriter } from '../../src/events/write.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import { findFormat, formatNames, type DocumentFormat, type LineFormat, type TranscriptFormat } from '../formats.js'
import { isObject } from '../shared/fields.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { detect } from './detect.js'
import { parseJsonDocument } from './json-document.js'
import { listTranscriptFiles } from './path-order.js'

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
}

const DETECT_BYTES = 64 * 1024

function resolveFormat(name: string): TranscriptFormat {
  const format = findFormat(name)
  if (!format) throw new TranscriptError('VH_UNKNOWN_FORMAT', name, null, `no transcript format is named ${JSON.stringify(name)}; known: ${formatNames().join(', ')}`)
  return format
}

function headOf(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(DETECT_BYTES)
    const read = readSync(fd, buffer, 0, DETECT_BYTES, 0)
    return buffer.subarray(0, read).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/** Detects the format of one file, reading the whole file only for a document that did not fit in the head. */
function detectFile(path: string): TranscriptFormat | undefined {
  const head = headOf(path)
  const lines = splitTextLines(head)
  // The head may end mid-line; a torn last line must not decide anything.
  if (head.length === DETECT_BYTES) lines.pop()
  const format = detect(lines)
  if (format || head.length < DETECT_BYTES || !head.trimStart().startsWith('{')) return format
  return detect(splitTextLines(readFileSync(path, 'utf8')))
}

interface Input {
  readonly format: TranscriptFormat
  readonly files: readonly string[]
  readonly policy: LinePolicy
}

function planInput(path: string, options: ReadTranscriptOptions): Input {
  const named = options.from === undefined ? undefined : resolveFormat(options.from)
  if (!existsSync(path)) {
    // Reef: a missing directory is an empty trajectory; without a format there is nothing to say what it would hold.
    if (named) return { format: named, files: [], policy: options.lines ?? 'reef' }
    throw new TranscriptError('VH_TRANSCRIPT_MISSING', path, null, 'no such file or directory')
  }
  if (!statSync(path).isDirectory()) {
    const format = named ?? detectFile(path)
    if (!format) throw new TranscriptError('VH_TRANSCRIPT_UNDETECTED', path, null, `no known format fits the first lines; name one with --from (${formatNames().join(', ')})`)
    return { format, files: [path], policy: options.lines ?? 'lenient' }
  }
  if (named) return { format: named, files: listTranscriptFiles(path, [named.extension]), policy: options.lines ?? 'reef' }
  const candidates = listTranscriptFiles(path, ['.jsonl', '.json'])
  const first = candidates[0]
  if (first === undefined) throw new TranscriptError('VH_TRANSCRIPT_UNDETECTED', path, null, 'the directory holds no .jsonl or .json file to detect a format from; name one with --from')
  const format = detectFile(first)
  if (!format) throw new TranscriptError('VH_TRANSCRIPT_UNDETECTED', first, null, `no known format fits the first lines; name one with --from (${formatNames().join(', ')})`)
  return { format, files: listTranscriptFiles(path, [format.extension]), policy: options.lines ?? 'reef' }
}

function seamFor(options: ReadTranscriptOptions): SeamOptions {
  return { projection: 'enriched', ...options.seam, run: options.run ?? 'convert' }
}

function parserFor(format: LineFormat): (text: string) => unknown {
  return format.numbers === 'value' ? JSON.parse : parseJsonLossless
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
  // Under Reef's rules a bad line is an error unless it turns out to be the last one.
  let pendingBad: { raw: string; number: number } | undefined
  const refusePending = (): never => {
    const bad = pendingBad as { raw: string; number: number }
    throw new TranscriptError('VH_TRANSCRIPT_CORRUPT_LINE', file, bad.number, 'the line is not JSON, and only a torn last line is tolerated')
  }
  for await (const batch of splitLineBatches(source, maxLineBytes === undefined ? {} : { maxLineBytes })) {
    const out: Emission[] = []
    for (const raw of batch as RawLine[]) {
      if (pendingBad) refusePending()
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
        value = parse(text)
      } catch {
        parsed = false
      }
      if (!parsed) {
        if (policy === 'reef') {
          pendingBad = { raw: text, number: raw.number }
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
    if (out.length > 0) yield out
  }
  // The torn tail of a crash mid-write: tolerated, and still carried as opaque rather than dropped.
  const tail: Emission[] = pendingBad ? projector.pushUnreadable(pendingBad.raw, pendingBad.number) : []
  yield [...tail, ...projector.finish()]
}

function readDocumentFile(file: string): string {
  const bytes = readFileSync(file)
  if (!isUtf8(bytes)) throw new TranscriptError('VH_TRANSCRIPT_NOT_UTF8', file, null, 'the document is not UTF-8')
  return bytes.toString('utf8')
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
      yield* projectLines(projector, createReadStream(file), file, policy, options.maxLineBytes, parserFor(format))
      closed = projector.closure()
      allClosed &&= closed !== null
    }
  }
  return { batches: run(), closure: () => (allClosed ? closed : null) }
}

function documentBatches(format: DocumentFormat, files: readonly string[], seam: SeamOptions): Batches {
  const reader = format.createReader(seam)
  async function* run(): AsyncGenerator<Emission[]> {
    for (const file of files) yield reader.pushDocument(parseJsonDocument(readDocumentFile(file), file))
    yield reader.finish()
  }
  return { batches: run(), closure: () => (files.length > 0 ? reader.closure() : null) }
}

/**
 * The emissions of a transcript (a file, or a directory read by Reef's rules), batch by batch,
 * ending with `stream.closed` where the format proves the run ended.
 */
export async function* readTranscriptBatches(path: string, options: ReadTranscriptOptions = {}): AsyncGenerator<Emission[]> {
  const input = planInput(path, options)
  const seam = seamFor(options)
  const { batches, closure } =
    input.format.kind === 'lines'
      ? lineBatches(input.format, input.files, seam, input.policy, options)
      : documentBatches(input.format, input.files, seam)
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
  let out = ''
  for await (const batch of readTranscriptBatches(path, options)) {
    for (const emission of batch) out += writer.write(emission)
    if (out.length >= chunkChars) {
      yield out
      out = ''
    }
  }
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
    let text = ''
    for await (const chunk of source) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
    const reader = format.createReader(seam)
    let out = ''
    for (const emission of [...reader.pushDocument(parseJsonDocument(text, name)), ...reader.finish()]) out += writer.write(emission)
    const reason = reader.closure()
    if (reason !== null) out += writer.close(reason)
    yield out
    return
  }
  const projector = format.createProjector(seam)
  let out = ''
  for await (const batch of projectLines(projector, source, name, options.lines ?? 'lenient', options.maxLineBytes, parserFor(format))) {
    for (const emission of batch) out += writer.write(emission)
    if (out.length >= 64 * 1024) {
      yield out
      out = ''
    }
  }
  const reason = projector.closure()
  if (reason !== null) out += writer.close(reason)
  if (out.length > 0) yield out
}
