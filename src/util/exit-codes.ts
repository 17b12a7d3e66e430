/** Exit codes, as upstream's tools use them: the CLI's, and a trace report's verdict (`reportExitCode`). */
export const EXIT = {
  /** Everything checked held. */
  OK: 0,
  /** A gap, a failed vector, an off-pin binary. */
  GAP: 1,
  /** A refusal or a usage error: never a verdict. */
  REFUSAL: 2,
  /** Nobody found out: a gating check could not decide. */
  UNKNOWN: 3,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]
