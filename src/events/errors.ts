/** Why a line of a `metaharness.event/1` stream was refused. */
export type EventReadCode =
  /** The bytes of the line are not UTF-8. */
  | 'NOT_UTF8'
  /** The line is longer than the reader's limit. */
  | 'LINE_TOO_LONG'
  /** The line is not JSON. */
  | 'NOT_JSON'
  /** The line is JSON but not an object (upstream `NotAnObject`). */
  | 'NOT_AN_OBJECT'
  /** `format` is missing or is not `metaharness.event/1` (upstream `UnknownFormat`). */
  | 'UNKNOWN_FORMAT'
  /** `event` names no event of the format (upstream `UnknownName`). */
  | 'UNKNOWN_NAME'
  /** The envelope or the payload does not have the declared shape (upstream `Malformed`). */
  | 'MALFORMED'

/** One refused line: a code, where (line and JSON pointer), and a sentence. */
export interface EventReadDiagnostic {
  readonly code: EventReadCode
  /** 1-based line number, counting blank lines. */
  readonly line: number
  /** JSON pointer into the line's object, when the problem is inside it. */
  readonly pointer?: string
  readonly message: string
}

/** Thrown by the `…OrThrow` readers with the first diagnostic. */
export class EventReadError extends Error {
  readonly code: EventReadCode
  readonly line: number
  readonly pointer: string | undefined

  constructor(diagnostic: EventReadDiagnostic, readonly source?: string) {
    super(`${diagnostic.code} at ${source ? `${source}:` : 'line '}${diagnostic.line}${diagnostic.pointer ? ` ${diagnostic.pointer}` : ''}: ${diagnostic.message}`)
    this.name = 'EventReadError'
    this.code = diagnostic.code
    this.line = diagnostic.line
    this.pointer = diagnostic.pointer
  }
}
