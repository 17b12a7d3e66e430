// The bin (bin/vitest-harness.js) from the sources, for unit tests that need the CLI as its own
// process without a build: `node --import tsx test/helpers/cli-child.ts <command> …`.
import { main } from '../../src/cli/main.js'

await main()
