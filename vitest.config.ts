import { defineConfig } from 'vitest/config'

// The project's own tests: unit tests next to their sources, plus test/unit and test/fuzz.
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'adapters/**/*.test.ts',
      'recorders/**/*.test.ts',
      'matchers/**/*.test.ts',
      'test/unit/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
    ],
    testTimeout: 20_000,
    // Scans every file the tests write for the secrets they used (test/helpers/secrets.ts).
    globalSetup: ['test/helpers/secret-scan.global.ts'],
  },
})
