/** Why a replay could not read its input. */
export type ReplayErrorCode = 'VH_LINE_TOO_LONG' | 'VH_INPUT_UNREADABLE' | 'VH_NOTHING_READ'

export class ReplayError extends Error {
  constructor(
    readonly code: ReplayErrorCode,
    /** `file:line`, or `line N` when the input has no name. */
    readonly location: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${code} at ${location}: ${message}`, options)
    this.name = 'ReplayError'
  }
}

/** Why a transcript could not be read or converted. */
export type TranscriptErrorCode =
  /** A line in the middle of a file is not JSON (Reef's rule: only a torn last line is tolerated). */
  | 'VH_TRANSCRIPT_CORRUPT_LINE'
  /** A line is JSON but not an object. */
  | 'VH_TRANSCRIPT_NOT_AN_OBJECT'
  /** A line's bytes are not UTF-8. */
  | 'VH_TRANSCRIPT_NOT_UTF8'
  /** A line is longer than the reader's limit. */
  | 'VH_TRANSCRIPT_LINE_TOO_LONG'
  /** A JSON document (hermes, ATIF, opencode storage) is not valid JSON. */
  | 'VH_TRANSCRIPT_NOT_JSON'
  /** A JSON document is valid JSON of the wrong shape. */
  | 'VH_TRANSCRIPT_BAD_SHAPE'
  /** The document declares a schema version the reader does not accept. */
  | 'VH_TRANSCRIPT_UNSUPPORTED_VERSION'
  /** The path does not exist. */
  | 'VH_TRANSCRIPT_MISSING'
  /** No format was named and none could be detected. */
  | 'VH_TRANSCRIPT_UNDETECTED'
  /** The file is compressed (gzip, zstd, xz, bzip2, zip): it must be decompressed to be read. */
  | 'VH_TRANSCRIPT_COMPRESSED'
  /** The named format is not registered. */
  | 'VH_UNKNOWN_FORMAT'
  /** More than one format claims the record that decides the format: name one with --from. */
  | 'VH_AMBIGUOUS_FORMAT'
  /** A format fits, but not with confidence (only a later record fits, or a weak sniff nothing corroborates): name it with --from. */
  | 'VH_UNCERTAIN_FORMAT'
  /** Nothing in the transcript was read: every record came out opaque (or only an empty session opening did not). */
  | 'VH_NOTHING_READ'
  /** A fleet argument (a glob, a directory) names no transcript at all. */
  | 'VH_FLEET_EMPTY'

/** A transcript refused: a code, the file and line, and a sentence saying why. */
export class TranscriptError extends Error {
  constructor(
    readonly code: TranscriptErrorCode,
    /** The file, as the caller named it (or `stdin`). */
    readonly file: string,
    /** 1-based line, counting blank lines; null when the problem is the whole file. */
    readonly line: number | null,
    readonly sentence: string,
    options?: { cause?: unknown },
  ) {
    super(`${code} at ${file}${line === null ? '' : `:${line}`}: ${sentence}`, options)
    this.name = 'TranscriptError'
  }
}

/**
 * An adapter refusing to plan a launch: the inputs ask for something it will not do. A C1
 * refusal vector expects exactly this `code`.
 */
export class LaunchRefusal extends Error {
  constructor(
    readonly code: string,
    /** The sentence a person reads. */
    readonly display: string,
  ) {
    super(`${code}: ${display}`)
    this.name = 'LaunchRefusal'
  }
}
