import type { CloseReason, Emission } from '../src/events/types.js'
import type { JsonObject } from './shared/fields.js'
import type { RecordVocabulary } from './shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from './types.js'
import { closestName } from '../src/util/closest-name.js'
import { TranscriptError } from './errors.js'

/** A record format read one JSON line at a time (`.jsonl`). */
export interface LineFormat {
  readonly kind: 'lines'
  /** The format's name as upstream spells it (`claude-code/stream-json`, `codex-session-jsonl`…). */
  readonly name: string
  /** Other names the same format is known by. */
  readonly aliases: readonly string[]
  /** The adapter (harness) whose record this is. */
  readonly adapter: string
  /** One line for `convert --help` and the README. */
  readonly summary: string
  /** The file extension a directory reader collects. */
  readonly extension: '.jsonl'
  /** A reader for one file of this format. */
  createProjector(seam: SeamOptions): RecordProjector
  /**
   * How numbers are read. `lexeme` keeps each number as written (`2.0` stays `2.0`), which the
   * formats whose projection upstream defines need to be byte-exact; `value` reads them with
   * `JSON.parse`, for formats whose mapping is ours, where it is markedly faster. Default: `lexeme`.
   */
  readonly numbers?: 'lexeme' | 'value'
  /** Whether one record, read from the start of a file, could only be this format. */
  sniff(record: JsonObject): boolean
  /** In a directory, whether `<sid>/subagents/*` files are read right after `<sid>.jsonl` (Claude Code projects). Default: Python `Path` order. */
  readonly subagentsFollowParents?: boolean
  /** How sure a record `sniff` accepted makes it; see `SniffConfidence`. Default: `certain`. */
  sniffConfidence?(record: JsonObject): SniffConfidence
  /** Every record type the format has and what its reader makes of it; the versions it was written against. */
  readonly vocabulary?: RecordVocabulary
}

/**
 * How much one record `sniff` accepted says. `certain`: a field only this format writes (a format
 * tag, a header only it has). `likely`: a shape other writers could share (a bare `type` name, an
 * `id`/`timestamp` pair); detection then wants another record of the first lines to fit as well.
 */
export type SniffConfidence = 'certain' | 'likely'

/** One parsed JSON document, with the means to say which line a part of it starts on. */
export interface ParsedDocument {
  /** The file as the caller named it. */
  readonly file: string
  readonly value: JsonObject
  /** The 1-based line on which element `index` of the top-level array `key` starts, or null. */
  lineOf(key: string, index: number): number | null
}

/** Reads the documents of one input, in path order. */
export interface DocumentReader {
  pushDocument(document: ParsedDocument): Emission[]
  finish(): Emission[]
  closure(): CloseReason | null
}

/** A format whose files are whole JSON documents (`.json`): no torn-tail tolerance. */
export interface DocumentFormat {
  readonly kind: 'documents'
  readonly name: string
  readonly aliases: readonly string[]
  readonly adapter: string
  readonly summary: string
  readonly extension: '.json'
  createReader(seam: SeamOptions): DocumentReader
  sniff(document: JsonObject): boolean
  /**
   * For a format whose document is a JSON array: the key its elements are read under (the reader
   * sees `{[arrayKey]: [...]}`), and whether the array's first element could only be this format.
   */
  readonly array?: { readonly key: string; sniff(first: JsonObject): boolean }
  /** How sure a document `sniff` accepted makes it. Default: `certain`. */
  sniffConfidence?(document: JsonObject): SniffConfidence
  /** Every record type the format has and what its reader makes of it; the versions it was written against. */
  readonly vocabulary?: RecordVocabulary
}

export type TranscriptFormat = LineFormat | DocumentFormat

const formats: TranscriptFormat[] = []
const byName = new Map<string, TranscriptFormat>()

/** Adds a format under its name and aliases; a name already taken is refused. */
export function registerFormat(format: TranscriptFormat): void {
  for (const name of [format.name, ...format.aliases]) {
    if (byName.has(name)) throw new Error(`a transcript format named ${JSON.stringify(name)} is already registered`)
  }
  formats.push(format)
  for (const name of [format.name, ...format.aliases]) byName.set(name, format)
}

/** The format registered under `name` (or an alias), or undefined. */
export function findFormat(name: string): TranscriptFormat | undefined {
  return byName.get(name)
}

/** Every registered format, in registration order (the order `detect` tries them). */
export function transcriptFormats(): readonly TranscriptFormat[] {
  return formats
}

/** Every name and alias, sorted. */
export function formatNames(): string[] {
  return [...byName.keys()].sort()
}

// More than this many near names is no suggestion: the list of known names follows anyway.
const MOST_NEAR_NAMES = 4

/**
 * The formats a name no format has probably meant, by their own names: those of which it is a whole
 * part (`b10x` → `b10x/loop-jsonl`, `b10x-harness/json`; `rollout` → `codex/rollout-jsonl`), else
 * the one spelt closest. Empty when nothing is near, or too much is.
 */
export function formatsNear(word: string): string[] {
  const wanted = word.toLowerCase()
  const parted = formats.filter((format) => [format.name, ...format.aliases].some((name) => name.toLowerCase().split(/[/._-]/).includes(wanted)))
  if (parted.length > 0) return parted.length <= MOST_NEAR_NAMES ? parted.map((format) => format.name).sort() : []
  const closest = closestName(word, formatNames())
  return closest === undefined ? [] : [(findFormat(closest) as TranscriptFormat).name]
}

/** `a`, `a or b`, `a, b or c`. */
function alternatives(names: readonly string[]): string {
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} or ${names.at(-1) as string}`
}

/** The refusal of a `--from` that names no format: what it may have meant, then every known name. */
export function unknownFormatError(name: string): TranscriptError {
  const near = formatsNear(name)
  const known = formatNames().join(', ')
  const sentence = near.length === 0 ? `; known: ${known}` : `: did you mean ${alternatives(near)}? Known: ${known}`
  return new TranscriptError('VH_UNKNOWN_FORMAT', name, null, `no transcript format is named ${JSON.stringify(name)}${sentence}`)
}
