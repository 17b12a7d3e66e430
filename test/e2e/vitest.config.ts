import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The default order, except that the trace checks of the harness transcripts run after the runs that write them. */
class TranscriptChecksLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const last = (file: TestSpecification) => file.moduleId.endsWith('harness-traces.test.ts')
    return [...sorted.filter((file) => !last(file)), ...sorted.filter(last)]
  }
}

// Built package and real binaries: `npm run test:e2e` builds dist/ first (npm ci no longer does: the
// package has no install-time script, `prepack` builds it for `npm pack`).
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    sequence: { sequencer: TranscriptChecksLast },
    // Every file the suites write lands under one root, scanned for credentials at the end; what a
    // harness's sandbox leaves outside it is removed.
    globalSetup: ['test/helpers/e2e-secret-scan.global.ts', 'test/helpers/e2e-sandbox-leftovers.global.ts'],
  },
})
