import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The examples a user would copy. They import `vitest-harness` as a user would; inside this
// repository Node resolves that name to the package itself (self-reference through `exports`).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['**/*.test.ts'],
  },
})
