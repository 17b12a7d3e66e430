/**
 * `vitest-harness/setup`: the setup file. Add it to `test.setupFiles` and every matcher is
 * registered: `expect(transcript).toSatisfyTraceSpec(spec)`, `toSatisfyExpectation({…})`.
 */
import { expect } from 'vitest'
import { harnessMatchers } from '../../matchers/index.js'

export type {} from '../../matchers/trace.js'

expect.extend(harnessMatchers)
