import type { Command } from '../src/events/command.js'
import type { Decision, Seam } from '../src/events/types.js'
import type { LaunchPlan, LineProjector, SeamOptions } from './types.js'

/**
 * What a driver needs from an adapter to control a live child (the C3 tier): how to start the
 * child for a control run, how to read what it writes, and how to write decisions and controls in
 * the vendor's own words. An adapter without one (b10x) refuses `tool.decide` and every other
 * decision command with `UNSUPPORTED_CONTROL`.
 */
export interface ControlSeam {
  /** The seam the adapter's calls arrive through (`hook`, `control_request`…), stamped on every decision. */
  readonly seam: Seam
  /** The vendor's own timeout for one decision; the driver's deadline is strictly less. */
  readonly vendorTimeoutMs: number
  /** The child to start for a control run driven by this fake-vendor script. */
  spawn(script: string): LaunchPlan
  /** A reader for what the child writes on stdout. */
  createProjector(seam: SeamOptions): LineProjector
  /** The line that carries one decision to the child. */
  decisionLine(callId: string, decision: Decision): string
  /** The line that carries a control command to the child, when the vendor has one. */
  controlLine(command: Command): string | undefined
  /**
   * The call a child line says the child is now blocked on, when the vendor's wire says so.
   * The driver then waits out its own deadline instead of reading on.
   */
  awaitingCall?(line: string): string | undefined
}
