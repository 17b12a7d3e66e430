import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { harness } from 'vitest-harness/plugin'

// The examples a user would copy. They import `vitest-harness` as a user would; inside this
// repository Node resolves that name to the package itself (self-reference through `exports`).
const root = fileURLToPath(new URL('.', import.meta.url))
const demoOut = process.env['VITEST_HARNESS_DEMO_OUT'] ?? join(root, '..', 'demo-output')

export default defineConfig({
  root,
  // The plugin registers the evidence reporter beside the default one: it writes what the run
  // established as AEP evidence documents. The examples start their own providers, so none here.
  plugins: [harness({ provider: false, evidence: { outDir: join(demoOut, 'evidence') } })],
  test: {
    include: ['**/*.test.ts'],
  },
})
