import { resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { resolveMode } from '../../recorders/provider/modes.js'
import { startProvider } from '../../recorders/provider/server.js'
import { normaliseHarnessOptions } from './defaults.js'
import { PROVIDED_OPTIONS_KEY, PROVIDED_PROVIDER_KEY } from './provided.js'

/**
 * Runs once per Vitest run, in the main process: starts one loopback provider and `provide`s its
 * origin. Tests reach it through the `provider` fixture. Record modes are refused here when CI is set.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const options = project.getProvidedContext()[PROVIDED_OPTIONS_KEY] ?? normaliseHarnessOptions()
  if (options.provider === false) {
    project.provide(PROVIDED_PROVIDER_KEY, null)
    return async () => undefined
  }
  const mode = resolveMode(options.provider.mode ?? undefined, process.env)
  const cassettesDir = resolve(project.config.root, options.provider.cassettesDir)
  const scenario = options.provider.scenario === null ? null : resolve(project.config.root, options.provider.scenario)
  // Scopes the fixture opens write under cassettesDir only, pass through to the configured upstream
  // only, and read no scenario but the configured one.
  const provider = await startProvider({
    env: process.env,
    cassetteRoot: cassettesDir,
    upstreams: options.provider.upstream ? [options.provider.upstream] : [],
    scenarios: scenario === null ? [] : [scenario],
  })
  project.provide(PROVIDED_PROVIDER_KEY, { origin: provider.origin, mode, cassettesDir, scenario, controlToken: provider.controlToken })
  return () => provider.close()
}
