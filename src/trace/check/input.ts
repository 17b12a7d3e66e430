import { fileURLToPath } from 'node:url'
import type { Emission } from '../../events/types.js'
import type { TraceSpec } from '../spec/model.js'
import { readSpecFile } from '../spec/read.js'
import type { TraceReport } from '../report-types.js'
import { checkAnyFormatText, checkEventStream, checkEvents, checkTranscriptFile, checkTranscriptFileSync, type CheckOptions } from './check.js'

/**
 * A transcript as a test names it: a file path (or `file:` URL, or a directory), text or bytes in
 * memory, or the events an adapter produced. A bare string is always a path. A path or a text is
 * read in any supported format, detected from its first lines unless `from` names it (see
 * `AnyFormatCheckOptions.from`).
 */
export type TraceTranscript =
  | string
  | URL
  | { path: string | URL; from?: string }
  | { text: string | Uint8Array; from?: string }
  | { events: Iterable<Emission> | AsyncIterable<Emission>; run?: string }

/** A specification as a test names it: validated already, or a path to a YAML or JSON file. */
export type TraceSpecInput = TraceSpec | string | URL

const asPath = (path: string | URL) => (path instanceof URL ? fileURLToPath(path) : path)

/** Reads a specification named by path, or returns one already validated. */
export function resolveSpec(input: TraceSpecInput): { spec: TraceSpec; path?: string } {
  if (typeof input === 'string' || input instanceof URL) {
    const path = asPath(input)
    return { spec: readSpecFile(path), path }
  }
  return { spec: input }
}

/** Where a transcript came from, for names and provenance. */
export function transcriptPath(input: TraceTranscript): string | undefined {
  if (typeof input === 'string' || input instanceof URL) return asPath(input)
  if ('path' in input) return asPath(input.path)
  return undefined
}

/** A short name for a transcript in a suite title. */
export function transcriptLabel(input: TraceTranscript): string {
  const path = transcriptPath(input)
  if (path !== undefined) return path.split(/[\\/]/).pop() ?? path
  return typeof input === 'object' && 'events' in input ? 'the events' : 'the transcript'
}

const withFrom = (options: CheckOptions, from: string | undefined) => (from === undefined ? options : { ...options, from })

/** Checks any transcript form, streaming a file. */
export async function checkAny(spec: TraceSpec, input: TraceTranscript, options: CheckOptions = {}): Promise<TraceReport> {
  if (typeof input === 'string' || input instanceof URL) return checkTranscriptFile(spec, asPath(input), options)
  if ('path' in input) return checkTranscriptFile(spec, asPath(input.path), withFrom(options, input.from))
  if ('text' in input) return checkAnyFormatText(spec, input.text, withFrom(options, input.from))
  if (!('events' in input)) throw new TypeError('a transcript is a path, {path}, {text} or {events}')
  return checkEventStream(spec, input.events, { ...options, ...(input.run === undefined ? {} : { run: input.run }) })
}

/** Checks any transcript form synchronously (a file is read whole): what a matcher can do. */
export function checkAnySync(spec: TraceSpec, input: TraceTranscript, options: CheckOptions = {}): TraceReport {
  if (typeof input === 'string' || input instanceof URL) return checkTranscriptFileSync(spec, asPath(input), options)
  if ('path' in input) return checkTranscriptFileSync(spec, asPath(input.path), withFrom(options, input.from))
  if ('text' in input) return checkAnyFormatText(spec, input.text, withFrom(options, input.from))
  if (!('events' in input)) throw new TypeError('a transcript is a path, {path}, {text} or {events}')
  const events = input.events
  if (Symbol.asyncIterator in events) throw new TypeError('a matcher checks synchronously: pass the events as an array (or use describeTraceSpec)')
  return checkEvents(spec, events, { ...options, ...(input.run === undefined ? {} : { run: input.run }) })
}
