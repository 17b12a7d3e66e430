/**
 * `vitest-harness`: the event stream (`metaharness.event/1`), vector manifests and the
 * model-free vector runner, AEP evidence records and intake, trace specifications and their
 * checker, AEP step maps and their flow projection, and the suites that run them in Vitest.
 * Matchers, setup, adapters, the reporter and the recorders have their own subpaths.
 */
export * from '../events/index.js'
export * from '../contract/index.js'
export * from '../evidence/index.js'
export * from '../trace/index.js'
export { describeTraceSpec } from '../vitest/trace-suite.js'
export type { TraceSuiteOptions } from '../vitest/trace-suite.js'
export type { TraceFleet } from '../vitest/trace-fleet.js'
export { checkFleet } from '../fleet/pool.js'
export type { FleetOptions } from '../fleet/pool.js'
export type { FleetCheckSetup, FleetTask, FleetResult } from '../fleet/messages.js'
export { expandTranscriptArguments } from '../fleet/expand.js'
export { TraceExpectationError } from '../vitest/trace-failure.js'
export type { TraceCheckMeta, ContractVectorMeta, StepRunMeta, HarnessTaskMeta } from '../vitest/meta.js'
export { HARNESS_META_KEY } from '../vitest/meta.js'
export * from '../stepmap/index.js'
export { describeStepMap, StepFailedError } from '../vitest/describe-step-map.js'
export type { DescribeStepMapOptions } from '../vitest/describe-step-map.js'
export { packageVersion as version } from '../util/package-info.js'
export { describeHarness } from '../contract/describe-harness.js'
export type { DescribeHarnessOptions, HarnessSuite } from '../contract/describe-harness.js'
