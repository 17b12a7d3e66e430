import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The examples a user would copy. They import `vitest-harness` as a user would; inside this
// repository Node resolves that name to the package itself (self-reference through `exports`).
const root = fileURLToPath(new URL('.', import.meta.url))
const demoOut = process.env['VITEST_HARNESS_DEMO_OUT'] ?? join(root, '..', 'demo-output')

export default defineConfig({
  root,
  test: {
    include: ['**/*.test.ts'],
    // The evidence reporter writes what the run established as AEP evidence documents.
    reporters: ['default', ['vitest-harness/reporter', { outDir: join(demoOut, 'evidence') }]],
  },
})
