import type {} from 'vitest'
import type { VectorOutcome } from '../contract/outcome.js'
import type { TraceReport } from '../trace/report-types.js'

/**
 * What tests attach to their task meta for the evidence reporter. Worker and main process share
 * only these types and the key: everything the reporter needs travels here, as JSON, so the same
 * evidence comes out of one run and of `--merge-reports` over sharded blobs.
 */
export const HARNESS_META_KEY = 'vitestHarness'

/** A trace check that ran to a verdict (set only when the check completed; a throw sets nothing). */
export interface TraceCheckMeta {
  /** Groups the tests of one (spec, transcript, advisory overrides, reader) check: one record per group. */
  key: string
  /** The whole report; identical on every test of the group. */
  report: TraceReport
  /** The row this test asserts; absent on a whole-spec test (`toSatisfyTraceSpec`). */
  expectationId?: string
  /** Epoch milliseconds when the check ran, taken in the worker. */
  observedAt: number
  /** The inputs as the user named them, for provenance (`inputs`, the reproducing command). */
  specPath?: string
  transcriptPath?: string
  /**
   * The checker's HMAC-SHA256 over the report's canonical bytes with the run's key: meta without
   * it (written by hand) or whose report no longer matches it mints no record.
   */
  proof?: string
}

/** One conformance vector's outcome inside a harness contract. */
export interface ContractVectorMeta {
  /** Groups the vectors of one `describeHarness` suite: one `contract_result` per group. */
  contract: string
  adapter: string
  /** `"<adapter> " + pins.join(", ")`, as `contract_result.provider`. */
  provider: string
  /** Every vector id the contract declares: a record is minted only when all of them ran. */
  vectorIds: string[]
  outcome: VectorOutcome
  observedAt: number
}

/** One step of a step map that ran (`describeStepMap`): where it is, what it came to, what it left. */
export interface StepRunMeta {
  /** The step map's id. */
  map: string
  state: string
  /** Which entry into the state, counting from 1. */
  visit: number
  index: number
  kind: 'command' | 'llm' | 'operator'
  status: 'passed' | 'failed' | 'skipped' | 'todo'
  /** Evidence documents the step left in the run directory (minted, or the verifier's own). */
  evidence: string[]
  /** The transcript an llm step wrote. */
  transcript?: string
  /** How many attempts it took (retries for no verdict included). */
  attempts: number
}

export interface HarnessTaskMeta {
  trace?: TraceCheckMeta
  vector?: ContractVectorMeta
  step?: StepRunMeta
}

declare module 'vitest' {
  interface TaskMeta {
    vitestHarness?: HarnessTaskMeta
  }
}
