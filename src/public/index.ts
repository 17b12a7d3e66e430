/**
 * `vitest-harness`: the event stream (`metaharness.event/1`), vector manifests and the
 * model-free vector runner, AEP evidence records and intake, AEP step maps and flow projection,
 * and the `describe`-style suites (`describeHarness`, `describeStepMap`).
 */
export * from '../events/index.js'
export * from '../contract/index.js'
export * from '../evidence/index.js'
export * from '../stepmap/index.js'
export { describeStepMap, StepFailedError } from '../vitest/describe-step-map.js'
export type { DescribeStepMapOptions } from '../vitest/describe-step-map.js'
export { packageVersion as version } from '../util/package-info.js'
export { describeHarness } from '../contract/describe-harness.js'
export type { DescribeHarnessOptions, HarnessSuite } from '../contract/describe-harness.js'
