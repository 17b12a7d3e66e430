/** `vitest-harness/matchers`: the custom matchers and their `declare module 'vitest'` augmentation. */
export { harnessMatchers } from '../../matchers/index.js'
export { traceMatchers } from '../../matchers/trace.js'
export type { TraceSpecMatcherOptions, InlineExpectationOptions } from '../../matchers/trace.js'
