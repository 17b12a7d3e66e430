/**
 * `vitest-harness/setup`: the setup file. Add it to `test.setupFiles` and every matcher is
 * registered: the contract matchers (`toReplayByteExact`, `toEmitEvents`, …) and the trace
 * matchers (`expect(transcript).toSatisfyTraceSpec(spec)`, `toSatisfyExpectation({…})`).
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

expect.extend(harnessMatchers)
