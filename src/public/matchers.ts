/**
 * `vitest-harness/matchers`: the matchers, for `expect.extend(harnessMatchers)`, and their types
 * (importing this entry brings the `declare module 'vitest'` augmentation into scope).
 */
export { harnessMatchers } from '../../matchers/index.js'
export { contractMatchers } from '../../matchers/contract.js'
export type { ExpectedEvent } from '../../matchers/contract.js'
export { traceMatchers } from '../../matchers/trace.js'
export type { TraceSpecMatcherOptions, InlineExpectationOptions } from '../../matchers/trace.js'
