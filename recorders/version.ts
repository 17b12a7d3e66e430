import { packageVersion } from '../src/util/package-info.js'

/** `vitest-harness <version>`: the tool a cassette names as its writer. */
export function toolVersion(): string {
  return `vitest-harness ${packageVersion()}`
}
