/** `vitest-harness/plugin`: the Vitest plugin `harness(options)`. */
export { harness } from '../vitest/plugin.js'
export { normaliseHarnessOptions, HarnessOptionError, type HarnessOptions, type HarnessProviderOptions, type ResolvedHarnessOptions, type HarnessTextRule } from '../vitest/defaults.js'
export type { ProvidedHarnessProvider } from '../vitest/provided.js'
export type { EvidenceReporterOptions, TestResultGroup } from '../vitest/reporters/evidence-options.js'
