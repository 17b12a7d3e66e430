/**
 * `vitest-harness/setup`: the setup file the plugin adds, and the typed fixtures (`test` with
 * `provider`). Matchers register here too.
 */
export { test, CassetteMissError, cassettePathFor, type ProviderFixture } from '../vitest/fixtures.js'
