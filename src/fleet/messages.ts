import type { TraceReport } from '../trace/report-types.js'
import type { ExitCode } from '../util/exit-codes.js'

/** What every worker of a fleet is started with: the check, the same for every transcript. */
export interface FleetCheckSetup {
  /** The specification file, read once per worker. */
  readonly specPath: string
  readonly advisory: readonly string[]
  readonly redact: boolean
  /** The format every transcript is in; undefined to detect each one's. */
  readonly from: string | undefined
}

/** One transcript to check: its place in the fleet, where it is, and the name reports give it. */
export interface FleetTask {
  readonly index: number
  readonly path: string
  readonly source: string
}

/** One transcript's outcome: its report (and text rendering), or the refusal that stopped it. */
export type FleetResult =
  | { readonly index: number; readonly outcome: 'report'; readonly report: TraceReport; readonly text: string; readonly exit: ExitCode }
  /** `message` is the refusal as `check --transcript` words it, which names the transcript. */
  | { readonly index: number; readonly outcome: 'refused'; readonly message: string; readonly exit: ExitCode }
