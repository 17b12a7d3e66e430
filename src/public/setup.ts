/**
 * `vitest-harness/setup`: the setup file (the plugin adds it). Every matcher is registered here —
 * the contract matchers (`toReplayByteExact`, `toEmitEvents`, …) and the trace matchers
 * (`expect(transcript).toSatisfyTraceSpec(spec)`, `toSatisfyExpectation({…})`) — and it exports the
 * typed fixtures: `test` with `provider`, a cassette scope per test.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { setupFiles: ['vitest-harness/setup'] } })
 * ```
 */
import { expect } from 'vitest'
import { harnessMatchers } from '../../matchers/index.js'

export type {} from '../../matchers/contract.js'
export type {} from '../../matchers/trace.js'
export { test, CassetteMissError, cassettePathFor, type ProviderFixture } from '../vitest/fixtures.js'

expect.extend(harnessMatchers)
