import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Built package and real binaries: runs after `npm run build` (npm ci runs it through `prepare`).
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
})
