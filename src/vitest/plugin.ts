/// <reference types="vitest/config" />
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import type { Vitest } from 'vitest/node'
import { normaliseHarnessOptions, type HarnessOptions } from './defaults.js'
import { PROVIDED_OPTIONS_KEY } from './provided.js'
import EvidenceReporter from './reporters/evidence.js'
import type { NormalizedEvidenceReporterOptions } from './reporters/evidence-options.js'

/** A sibling module's path, from the sources (`.ts`) or the build (`.js`). */
function modulePath(relative: string): string {
  const js = fileURLToPath(new URL(`${relative}.js`, import.meta.url))
  return existsSync(js) ? js : fileURLToPath(new URL(`${relative}.ts`, import.meta.url))
}

/** The name a user lists the evidence reporter under by hand. */
const EVIDENCE_REPORTER_NAME = 'vitest-harness/reporter'

function reporterName(entry: unknown): unknown {
  return Array.isArray(entry) ? entry[0] : entry
}

/**
 * Adds the evidence reporter to a resolved run's reporters, after the user's: not to a `blob`
 * run (a shard, whose evidence is minted when its blobs are merged), and not a second time.
 */
function addEvidenceReporter(vitest: Vitest, options: NormalizedEvidenceReporterOptions): void {
  const reporters = vitest.config.reporters
  const names = reporters.map(reporterName)
  if (names.includes('blob')) return
  if (names.includes(EVIDENCE_REPORTER_NAME) || names.some((name) => name instanceof EvidenceReporter)) return
  // Pushed, never assigned: the user's reporters stay as they are (`vitest.reporters` is rebuilt from this list).
  reporters.push(new EvidenceReporter(options))
}

/**
 * The Vitest plugin: starts one loopback model provider per run (globalSetup) and `provide`s its
 * URL, adds the `vitest-harness/setup` file, and with `evidence` registers the evidence reporter
 * beside the user's reporters. Returns only its own config entries.
 *
 * @example
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * import { harness } from 'vitest-harness/plugin'
 * export default defineConfig({ plugins: [harness({ provider: { cassettesDir: 'test/cassettes' }, evidence: { outDir: 'evidence' } })] })
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
          provide: { [PROVIDED_OPTIONS_KEY]: JSON.parse(JSON.stringify(resolved)) as typeof resolved },
        },
      }
    },
    configureVitest({ vitest }) {
      if (resolved.evidence !== false) addEvidenceReporter(vitest, resolved.evidence)
    },
  }
}
