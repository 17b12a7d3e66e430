/// <reference types="vitest/config" />
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { normaliseHarnessOptions, type HarnessOptions } from './defaults.js'
import './provided.js'

/** A sibling module's path, from the sources (`.ts`) or the build (`.js`). */
function modulePath(relative: string): string {
  const js = fileURLToPath(new URL(`${relative}.js`, import.meta.url))
  return existsSync(js) ? js : fileURLToPath(new URL(`${relative}.ts`, import.meta.url))
}

/**
 * The Vitest plugin: starts one loopback model provider per run (globalSetup) and `provide`s its
 * URL, and adds the `vitest-harness/setup` file. Returns only its own config entries. (Reporters
 * will join through `configureVitest`, from a `reporter` option normalised in `defaults.ts`.)
 *
 * @example
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * import { harness } from 'vitest-harness/plugin'
 * export default defineConfig({ plugins: [harness({ provider: { cassettesDir: 'test/cassettes' } })] })
 */
export function harness(options: HarnessOptions = {}): Plugin {
  const resolved = normaliseHarnessOptions(options)
  return {
    name: 'vitest-harness',
    config() {
      return {
        test: {
          globalSetup: resolved.provider === false ? [] : [modulePath('./global-setup')],
          setupFiles: [modulePath('../public/setup')],
          provide: { vitestHarnessOptions: JSON.parse(JSON.stringify(resolved)) as typeof resolved },
        },
      }
    },
  }
}
