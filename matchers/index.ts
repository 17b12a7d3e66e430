import { contractMatchers } from './contract.js'
import { traceMatchers } from './trace.js'

/** Every matcher family, for `expect.extend(harnessMatchers)` (what `vitest-harness/setup` does). */
export const harnessMatchers = {
  ...contractMatchers,
  ...traceMatchers,
}
