/** Every refusal the recorders can make, as a SCREAMING_SNAKE code. */
export type RecorderErrorCode =
  | 'VH_NON_LOOPBACK'
  | 'VH_MODE_INVALID'
  | 'VH_MODE_REFUSED_IN_CI'
  | 'VH_CASSETTE_MISSING'
  | 'VH_CASSETTE_CORRUPT'
  | 'VH_CASSETTE_TRUNCATED'
  | 'VH_CASSETTE_OUTDATED'
  | 'VH_CASSETTE_LOCKED'
  | 'VH_CASSETTE_MISS'
  | 'VH_SCENARIO_INVALID'
  | 'VH_UPSTREAM_MISSING'
  | 'VH_OPTION_INVALID'
  | 'VH_CONTROL_TOKEN'
  | 'VH_CONTROL_HOST'
  | 'VH_CONTROL_ORIGIN'
  | 'VH_CONTROL_CONTENT_TYPE'
  | 'VH_PATH_OUTSIDE_ROOT'
  | 'VH_UPSTREAM_NOT_CONFIGURED'
  | 'VH_CREDENTIALS_OVERFLOW'
  | 'VH_REQUEST_LOG_FAILED'
  | 'VH_PROVIDER_FAILED'
  /** A cassette or scenario path names a directory, a socket or a device, not a file. */
  | 'VH_INPUT_NOT_A_FILE'
  /** A cassette or scenario is larger than its reading limit. */
  | 'VH_INPUT_TOO_LARGE'
  /** The provider could not listen: the port is taken, or the host is not a loopback address it can bind. */
  | 'VH_PROVIDER_LISTEN'

/**
 * A recorder refusal: what failed, where (a file and line, or a JSON path) and how to fix it.
 * `cause` is kept when another error started it.
 */
export class RecorderError extends Error {
  readonly code: RecorderErrorCode
  /** `file:line`, a JSON path or an option name; absent when the error has no place. */
  readonly location: string | undefined

  constructor(code: RecorderErrorCode, message: string, options: { location?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'RecorderError'
    this.code = code
    this.location = options.location
  }
}
