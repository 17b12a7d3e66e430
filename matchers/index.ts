import { contractMatchers } from './contract.js'

/** Every vitest-harness matcher, for `expect.extend(harnessMatchers)`. */
export const harnessMatchers = {
  ...contractMatchers,
}
