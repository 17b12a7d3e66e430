import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Upstream fidelity: reads ../shared/reference/ from the repo root, which CI always has.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/reference/**/*.test.ts'],
    testTimeout: 60_000,
  },
})
