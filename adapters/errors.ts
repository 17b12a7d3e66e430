/** Why a replay could not read its input. */
export type ReplayErrorCode = 'VH_LINE_TOO_LONG' | 'VH_INPUT_UNREADABLE'

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
