/**
 * `vitest-harness/setup`: a Vitest setup file that registers every vitest-harness matcher.
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

expect.extend(harnessMatchers)
