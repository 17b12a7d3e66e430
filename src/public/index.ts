/**
 * `vitest-harness`: the event stream (`metaharness.event/1`), vector manifests and the
 * model-free vector runner, AEP evidence records and intake. Vitest-only surfaces have their own
 * subpaths.
 */
export * from '../events/index.js'
export * from '../contract/index.js'
export * from '../evidence/index.js'
export { packageVersion as version } from '../util/package-info.js'
export { describeHarness } from '../contract/describe-harness.js'
export type { DescribeHarnessOptions, HarnessSuite } from '../contract/describe-harness.js'
