import type { EvidenceKindName } from './intake-kinds.js'

/**
 * AEP's named verifier classes (`aep_domain::verification::Verifier`). Any other name parses as an
 * external tool (`git`, `protocol`, `ruff`), which no row of {@link DEFAULT_VERIFIERS} names.
 */
export const NAMED_VERIFIERS = [
  'compiler',
  'test-runner',
  'contract-runner',
  'static-analyzer',
  'property-tester',
  'model-checker',
  'telemetry-query',
  'policy-engine',
  'human-approval',
  'human-review',
  'artifact-validator',
  'conformance-runner',
  'trace-checker',
] as const

export type NamedVerifier = (typeof NAMED_VERIFIERS)[number]

/** Whether `name` is one of AEP's named verifier classes rather than an external tool. */
export function isNamedVerifier(name: string): name is NamedVerifier {
  return (NAMED_VERIFIERS as readonly string[]).includes(name)
}

/**
 * The named verifiers that can establish each kind (`EvidenceKind::default_verifiers`): a table of
 * defaults, not of constraints — an external tool is never refused against it. The two ESS source
 * kinds take the ESS row; `review_outcome` the review row.
 */
export const DEFAULT_VERIFIERS: Readonly<Record<EvidenceKindName, readonly NamedVerifier[]>> = {
  test_result: ['test-runner'],
  static_analysis: ['static-analyzer', 'compiler'],
  contract_result: ['contract-runner'],
  property_test_result: ['property-tester', 'model-checker'],
  deployment_result: ['policy-engine', 'telemetry-query'],
  metric_observation: ['telemetry-query'],
  health_observation: ['telemetry-query'],
  approval: ['human-approval'],
  diff: ['compiler', 'static-analyzer'],
  artifact: ['artifact-validator'],
  review: ['human-review'],
  review_outcome: ['human-review'],
  verification: ['policy-engine', 'model-checker'],
  specification: ['test-runner', 'human-review'],
  ess_conformance: ['conformance-runner'],
  ess_conformance_v2: ['conformance-runner'],
  ess_conformance_coverage_v1: ['conformance-runner'],
  trace_conformance: ['trace-checker'],
}

/** The kinds a named verifier can establish, in `EvidenceKind::ALL` order. */
export function kindsEstablishedBy(verifier: NamedVerifier): EvidenceKindName[] {
  return (Object.keys(DEFAULT_VERIFIERS) as EvidenceKindName[]).filter((kind) => DEFAULT_VERIFIERS[kind].includes(verifier))
}
