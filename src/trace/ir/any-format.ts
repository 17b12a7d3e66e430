import { createHash } from 'node:crypto'
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { TranscriptError } from '../../../adapters/errors.js'
import { findFormat, unknownFormatError, type TranscriptFormat as AdapterFormat } from '../../../adapters/formats.js'
import { detectCandidates, detectionRefusal, type Detection } from '../../../adapters/transcript/detect.js'
import { refuseCompressedFile, refusingCompressedStream } from '../../../adapters/transcript/compressed.js'
import { peekTranscriptStream } from '../../../adapters/transcript/peek.js'
import { detectTranscriptCandidates, planTranscript, readStreamBatches, readTextEventsSync, readTranscriptBatches, readTranscriptEventsSync } from '../../../adapters/transcript/read.js'
import { EVENT_FORMAT } from '../../events/format.js'
import { splitTextLines } from '../../events/lines.js'
import { OFF_THREAD_DIGEST_MIN_BYTES, readFileHashedOffThread } from '../../util/sha256-off-thread.js'
import { TraceTranscriptError } from '../errors.js'
import type { EmissionBatch, TranscriptChunk, TranscriptFormat, TranscriptOrigin, TranscriptReadOptions } from './read.js'
import { CLAUDE_CODE_STREAM_JSON } from './stream-json.js'
import type { AdapterRef } from './types.js'

/**
 * Any supported transcript, on its way to the trace reader. The two wires upstream's checker reads
 * itself — a `metaharness.event/1` stream and Claude Code stream-json — go to it as they are, so
 * their reports are upstream's. Every other format an adapter reads (a Codex rollout or
 * `exec --json`, pi, dsh, native, ATIF, hermes, opencode, a b10x loop; any directory) is read by
 * its adapter into `metaharness.event/1` events, handed to the trace reader as events (never
 * printed to be parsed again), and read as that stream would be, with the original's digest and
 * the adapter chain in the report. A text no format fits also goes to the reader as it is: it refuses it as
 * upstream would.
 */

/** The run id a conversion writes: the one `vitest-harness convert` writes, so `convert | check -` gives the same rows. */
export const CONVERSION_RUN = 'convert'

/** How a transcript is to be read: its bytes, and what the trace reader must know about them. */
export interface OpenedTranscript<Bytes> {
  readonly bytes: Bytes
  /** The reader to use, and for a conversion the original's digest and the adapter chain. */
  readonly read: Pick<TranscriptReadOptions, 'format' | 'origin' | 'bytesDigest'>
}

/** Where the reader is named, or a conversion's format. */
type Route = { via: 'reader'; format?: TranscriptFormat } | { via: 'adapter'; format: AdapterFormat }

/** The report's adapter for a conversion: the adapter's format, then the reader that read its output. */
export function convertedAdapterRef(format: AdapterFormat): AdapterRef {
  return { name: `${format.name} via metaharness/event-stream`, written_against: [EVENT_FORMAT] }
}

/** What the reader is told of a conversion: its adapter chain, the original's digest and format. */
function conversionOrigin(format: AdapterFormat, digest: () => string): TranscriptOrigin {
  return { adapter: convertedAdapterRef(format), digest, format: format.name }
}

function readerFormatOf(format: AdapterFormat): TranscriptFormat | undefined {
  if (format.name === EVENT_FORMAT) return EVENT_FORMAT
  if (format.name === CLAUDE_CODE_STREAM_JSON.name) return CLAUDE_CODE_STREAM_JSON.name as TranscriptFormat
  return undefined
}

/** The format a `--from` names; an unknown name is a `TranscriptError` listing the known ones. */
export function namedTranscriptFormat(name: string): AdapterFormat {
  const format = findFormat(name)
  if (!format) throw unknownFormatError(name)
  return format
}

function routeOf(format: AdapterFormat | undefined): Route {
  if (format === undefined) return { via: 'reader' }
  const reader = readerFormatOf(format)
  return reader === undefined ? { via: 'adapter', format } : { via: 'reader', format: reader }
}

/**
 * Where a detection sends a transcript. Nothing fitting goes to the reader, which reads it as
 * upstream does (by its first line's tag, else as stream-json) and refuses what it cannot read. A
 * guess among only the reader's own wires is that same fallback; any other guess, and two formats
 * claiming the file, are refused naming the candidates.
 */
function detectedRoute(detection: Detection, file: string): Route {
  if (detection.outcome === 'detected') return routeOf(detection.format)
  if (detection.outcome === 'none') return { via: 'reader' }
  const readerOwn = (name: string) => {
    const format = findFormat(name)
    return format !== undefined && readerFormatOf(format) !== undefined
  }
  if (detection.outcome === 'uncertain' && detection.candidates.every(readerOwn)) return { via: 'reader' }
  throw detectionRefusal(detection, file)
}

/** A conversion's refusal, as the trace family words a transcript refusal. */
function conversionRefusal(error: TranscriptError, format: string, source: string | undefined): TraceTranscriptError {
  const location = error.line === null ? 'transcript' : `line[${error.line}]`
  return new TraceTranscriptError([{ code: 'TRACE-ADAPT-001', location, message: `${error.file}: ${error.sentence} (${error.code})` }], format, 1, source)
}

/**
 * How a directory is read: the named format, or the one its first file shows. A directory with
 * no transcript file in it holds no events (`TRACE-ADAPT-002`).
 */
function directoryRoute(path: string, named: AdapterFormat | undefined, source: string | undefined): Route {
  if (named) return { via: 'adapter', format: named }
  try {
    return { via: 'adapter', format: planTranscript(path).format }
  } catch (error) {
    if (!(error instanceof TranscriptError)) throw error
    if (error.file === path) {
      throw new TraceTranscriptError([{ code: 'TRACE-ADAPT-002', location: 'transcript', message: `the directory ${path} holds no .jsonl or .json file: there is nothing to judge` }], 'a transcript directory', 1, source)
    }
    throw conversionRefusal(error, 'a transcript directory', source)
  }
}

function pathRoute(path: string, from: string | undefined, source: string | undefined): Route {
  const named = from === undefined ? undefined : namedTranscriptFormat(from)
  // A missing file goes to the reader as it is: its own error says so.
  if (!existsSync(path)) return routeOf(named)
  if (statSync(path).isDirectory()) return directoryRoute(path, named, source)
  refuseCompressedFile(path)
  return named ? routeOf(named) : detectedRoute(detectTranscriptCandidates(path), source ?? path)
}

async function* refusingAs<Chunk>(chunks: AsyncIterable<Chunk>, format: AdapterFormat, source: string | undefined): AsyncGenerator<Chunk> {
  try {
    yield* chunks
  } catch (error) {
    throw error instanceof TranscriptError ? conversionRefusal(error, format.name, source) : error
  }
}

function convertingSync<T>(format: string, source: string | undefined, convert: () => T): T {
  try {
    return convert()
  } catch (error) {
    throw error instanceof TranscriptError ? conversionRefusal(error, format, source) : error
  }
}

/** A transcript file is read in chunks this big: fewer reads, and one line at most is held across two. */
const READ_CHUNK_BYTES = 1 << 18

/**
 * How a file is read: `streamed` through the event loop, or `blocking` — chunk by chunk with
 * synchronous reads, for a thread that has nothing else to do (a fleet worker), which then never
 * waits on the loop between a read and the next.
 */
export type TranscriptReading = 'streamed' | 'blocking'

/** A file's bytes in chunks, read synchronously as they are asked for; the file is opened on the first. */
function* blockingChunks(path: string): Generator<Uint8Array> {
  const fd = openSync(path, 'r')
  try {
    // Sized to what the file holds (a fleet's transcripts are small): a megabyte per file is garbage.
    let expected = fstatSync(fd).size
    for (;;) {
      // A fresh buffer each time: the reader may hold the last line's piece of the one before.
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, Math.max(expected, BLOCKING_TAIL_BYTES)))
      const read = readSync(fd, chunk, 0, chunk.length, null)
      if (read === 0) return
      expected -= read
      yield chunk.subarray(0, read)
    }
  } finally {
    closeSync(fd)
  }
}

/** Whether a path is a file big enough that its digest is worth a thread of its own. */
function isBigFile(path: string): boolean {
  const stats = statSync(path, { throwIfNoEntry: false })
  return stats !== undefined && stats.isFile() && stats.size >= OFF_THREAD_DIGEST_MIN_BYTES
}

/** What is read past a file's size, for bytes written after it was measured (and to see its end). */
const BLOCKING_TAIL_BYTES = 4096

/**
 * Opens a transcript path for the trace reader, streamed: a file in any supported format, or a
 * directory (read by Reef's rules). `from` names the format instead of detecting it.
 * `transcript_digest` of a conversion is the sha256 of the original file's bytes (of a
 * directory's files, concatenated in the order they are read).
 */
export function openTranscriptPath(path: string, from?: string, source?: string): OpenedTranscript<AsyncIterable<TranscriptChunk>>
export function openTranscriptPath(path: string, from: string | undefined, source: string, reading: TranscriptReading): OpenedTranscript<AsyncIterable<TranscriptChunk> | Iterable<TranscriptChunk>>
export function openTranscriptPath(
  path: string,
  from?: string,
  source: string = path,
  reading: TranscriptReading = 'streamed',
): OpenedTranscript<AsyncIterable<TranscriptChunk> | Iterable<TranscriptChunk>> {
  const route = pathRoute(path, from, source)
  if (route.via === 'reader') {
    const format = route.format === undefined ? {} : { format: route.format }
    if (reading === 'streamed' && isBigFile(path)) {
      const file = readFileHashedOffThread(path)
      return { bytes: file.chunks, read: { ...format, bytesDigest: file.digest } }
    }
    const bytes = reading === 'blocking' ? blockingChunks(path) : createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })
    return { bytes, read: format }
  }
  const { format } = route
  // Planned now, as the adapter will read it: a path it refuses is refused here, before any read.
  planTranscript(path, { from: format.name })
  const hash = createHash('sha256')
  let digest: string | undefined
  async function* bytes(): AsyncGenerator<EmissionBatch> {
    // The original's bytes are hashed as the adapter reads them: one pass, the digest ready when the read ends.
    const onSourceBytes = (chunk: Uint8Array) => hash.update(chunk)
    for await (const emissions of readTranscriptBatches(path, { from: format.name, run: CONVERSION_RUN, onSourceBytes })) yield { run: CONVERSION_RUN, emissions }
    digest = hash.digest('hex')
  }
  return { bytes: refusingAs(bytes(), format, source), read: { format: EVENT_FORMAT, origin: conversionOrigin(format, () => digest as string) } }
}

/** As `openTranscriptPath`, read whole and synchronously (what a matcher can do). */
export function openTranscriptPathSync(path: string, from?: string, source: string = path): OpenedTranscript<TranscriptChunk> {
  const route = pathRoute(path, from, source)
  if (route.via === 'reader') return { bytes: readFileSync(path), read: route.format === undefined ? {} : { format: route.format } }
  const { format } = route
  const hash = createHash('sha256')
  for (const file of planTranscript(path, { from: format.name }).files) hash.update(readFileSync(file))
  const digest = hash.digest('hex')
  const emissions = convertingSync(format.name, source, () => readTranscriptEventsSync(path, { from: format.name, run: CONVERSION_RUN }))
  return { bytes: { run: CONVERSION_RUN, emissions }, read: { format: EVENT_FORMAT, origin: conversionOrigin(format, () => digest) } }
}

function detectText(text: string): Detection {
  return detectCandidates(splitTextLines(text))
}

/** Opens a transcript held in memory: detected from its lines unless `from` names the format. */
export function openTranscriptText(text: string | Uint8Array, from?: string, source?: string): OpenedTranscript<TranscriptChunk> {
  const named = from === undefined ? undefined : namedTranscriptFormat(from)
  const route = named ? routeOf(named) : detectedRoute(detectText(typeof text === 'string' ? text : Buffer.from(text).toString('utf8')), source ?? 'the transcript')
  if (route.via === 'reader') return { bytes: text, read: route.format === undefined ? {} : { format: route.format } }
  const { format } = route
  const digest = createHash('sha256').update(text).digest('hex')
  const emissions = convertingSync(format.name, source, () => readTextEventsSync(text, format.name, { run: CONVERSION_RUN, ...(source === undefined ? {} : { source }) }))
  return { bytes: { run: CONVERSION_RUN, emissions }, read: { format: EVENT_FORMAT, origin: conversionOrigin(format, () => digest) } }
}

/**
 * Opens a byte stream with no path (stdin): its head is read ahead to detect the format (see
 * `peekTranscriptStream`), then replayed. The digest of a conversion is taken over the bytes as they pass.
 */
export async function openTranscriptStream(stream: AsyncIterable<Uint8Array | string>, from?: string, source = 'stdin'): Promise<OpenedTranscript<AsyncIterable<TranscriptChunk>>> {
  const named = from === undefined ? undefined : namedTranscriptFormat(from)
  let route: Route
  let replay: () => AsyncGenerator<Uint8Array>
  if (named !== undefined) {
    route = routeOf(named)
    const checked = await refusingCompressedStream(stream, source)
    replay = () => checked
  } else {
    const peeked = await peekTranscriptStream(stream, source)
    route = detectedRoute(peeked.detection, source)
    replay = peeked.replay
  }
  if (route.via === 'reader') return { bytes: replay(), read: route.format === undefined ? {} : { format: route.format } }
  const converted = route.format
  const hash = createHash('sha256')
  async function* hashed(): AsyncGenerator<Uint8Array> {
    for await (const chunk of replay()) {
      hash.update(chunk)
      yield chunk
    }
  }
  let digest: string | undefined
  async function* bytes(): AsyncGenerator<EmissionBatch> {
    for await (const emissions of readStreamBatches(hashed(), converted.name, { run: CONVERSION_RUN, source })) yield { run: CONVERSION_RUN, emissions }
    digest = hash.digest('hex')
  }
  return { bytes: refusingAs(bytes(), converted, source), read: { format: EVENT_FORMAT, origin: conversionOrigin(converted, () => digest as string) } }
}
