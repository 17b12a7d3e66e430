/**
 * `vitest-harness/reporter`: the evidence reporter. Register it by name:
 * `reporters: ['default', ['vitest-harness/reporter', { outDir: 'evidence' }]]`.
 */
export { default, default as EvidenceReporter } from '../vitest/reporters/evidence.js'
export type { EvidenceReporterOptions, TestResultGroup } from '../vitest/reporters/evidence.js'
