import type { z } from 'zod'
import type { LaunchDeclaration } from './launch/declaration.js'
import type { ControlSeam } from './control.js'
import type { ContractObligations } from './obligations.js'
import type { Capabilities, LaunchPlan, LineProjector, SeamOptions } from './types.js'

/** Everything the toolkit knows about one harness: its declaration, its reader and its launch. */
export interface HarnessAdapter<LaunchInputs = unknown> {
  /** The adapter id (`b10x`, `claude`, `codex`…), as `contract_result.provider` starts. */
  readonly id: string
  /** The vendor binary's name. */
  readonly program: string
  /** The banner `<program> --version` prints before the version, e.g. `b10x-harness `. */
  readonly bannerPrefix: string
  capabilities(): Capabilities
  /** A reader for one run of this harness's own record. */
  createProjector(seam: SeamOptions): LineProjector
  /** How the harness is launched for fixed inputs, when the adapter launches one. */
  readonly launch?: {
    /** Validates launch inputs read from a vector manifest. */
    readonly inputs: z.ZodType<LaunchInputs>
    /** The launch record, or a thrown `LaunchRefusal` when the inputs ask for what the adapter refuses. */
    plan(inputs: LaunchInputs): LaunchPlan
  }
  /** How `launchHarness` runs it headless against a loopback provider. */
  readonly declaration?: LaunchDeclaration
  /** The child's constructed PATH for an operator HOME: where `doctor` resolves the binary. */
  childPath?(home?: string): string
  /** The flags a launch can send, and the argv that makes the binary list the flags it declares. */
  readonly flagSurface?: { readonly helpArgs: readonly string[]; readonly flags: readonly string[] }
  /** How a driver controls a live child; absent for an adapter with no decision seam. */
  readonly control?: ControlSeam
  /** The adapter's contract checklist: which vectors answer each of the four rows. */
  readonly obligations?: ContractObligations
  /**
   * The ids of the package's own vectors that upstream's `metaharness conformance <id> --contract`
   * runs. When declared, a contract over the package's vectors runs only these by default, so its
   * line is upstream's; the folder's other vectors are the project's own, run on request.
   */
  readonly upstreamVectors?: readonly string[]
}
