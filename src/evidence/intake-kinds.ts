import {
  bool,
  count,
  dottedId,
  environment,
  hexDigest,
  kebabId,
  number,
  oneOf,
  optional,
  seed,
  sequence,
  suite,
  text,
  texts,
  verifier,
  type ValueCheck,
} from './intake-values.js'

/** AEP's evidence kinds (`EvidenceKind::ALL`), in upstream's order. */
export const EVIDENCE_KINDS = [
  'test_result',
  'static_analysis',
  'contract_result',
  'property_test_result',
  'deployment_result',
  'metric_observation',
  'health_observation',
  'approval',
  'diff',
  'artifact',
  'review',
  'review_outcome',
  'verification',
  'specification',
  'ess_conformance',
  'ess_conformance_v2',
  'ess_conformance_coverage_v1',
  'trace_conformance',
] as const

export type EvidenceKindName = (typeof EVIDENCE_KINDS)[number]

/**
 * The older spellings an evidence *record* is read under: the `#[serde(alias)]`es on upstream's
 * `Evidence` enum. `EvidenceKind::ALIASES` lists five more (`artifact_evidence`, `review_result`,
 * `verification_record`, `specification_record`, `ess_conformance_result`), but those are read
 * only where a requirement names a kind; a record tagged with one does not deserialize.
 */
export const RECORD_KIND_ALIASES: Readonly<Record<string, EvidenceKindName>> = {
  test_execution: 'test_result',
  source_diff: 'diff',
}

/**
 * Every older spelling `EvidenceKind::parse` accepts where a document *names* a kind (a step map's
 * `evidence.kind`, a requirement): the two record aliases plus `EvidenceKind::ALIASES`.
 */
export const EVIDENCE_KIND_ALIASES: Readonly<Record<string, EvidenceKindName>> = {
  ...RECORD_KIND_ALIASES,
  artifact_evidence: 'artifact',
  review_result: 'review',
  verification_record: 'verification',
  specification_record: 'specification',
  ess_conformance_result: 'ess_conformance',
}

/** The kind a document names, canonical or by an accepted older spelling; `undefined` when neither. */
export function parseEvidenceKind(written: string): EvidenceKindName | undefined {
  return (EVIDENCE_KINDS as readonly string[]).includes(written) ? (written as EvidenceKindName) : EVIDENCE_KIND_ALIASES[written]
}

export interface FieldRule {
  readonly check: ValueCheck
  readonly required?: boolean
}

const STATUS = oneOf(['passed', 'failed', 'inconclusive', 'skipped'], 'verification status')
const optText = optional(text)
const req = (check: ValueCheck): FieldRule => ({ check, required: true })
const opt = (check: ValueCheck): FieldRule => ({ check })

/**
 * Each kind's payload fields (`deny_unknown_fields` upstream), from `aep-domain/src/evidence.rs`.
 * A kind absent here has a payload this tool does not check (see `UNCHECKED_PAYLOADS`).
 */
export const PAYLOAD_FIELDS: Partial<Record<EvidenceKindName, Readonly<Record<string, FieldRule>>>> = {
  test_result: { suite: req(suite), passed: opt(count), failed: opt(count), skipped: opt(count), duration_ms: opt(optional(count)), selector: opt(optText) },
  static_analysis: { tool: opt(optional(dottedId('tool'))), errors: opt(count), warnings: opt(count) },
  contract_result: { checked: opt(count), failed: opt(count), breaking_changes: opt(count), consumer: opt(optText), provider: opt(optText) },
  property_test_result: { property: req(kebabId('claim')), cases: opt(count), seed: opt(optional(seed)), status: req(STATUS), counterexamples: opt(sequence) },
  deployment_result: {
    environment: req(environment),
    revision: req(text),
    previous_revision: opt(optText),
    strategy: opt(optText),
    status: req(oneOf(['in_progress', 'succeeded', 'failed', 'rolled_back'], 'deployment status')),
  },
  metric_observation: { metric: req(text), value: req(number), unit: opt(optText), window: opt(optText), service: opt(optional(dottedId('service'))) },
  health_observation: { service: opt(optional(dottedId('service'))), status: req(oneOf(['healthy', 'degraded', 'unhealthy'], 'health status')), detail: opt(optText) },
  approval: { approval: req(kebabId('approval')), approver: req((value) => (value.type === 'map' ? undefined : 'invalid type, expected a producer map')), decision: req(oneOf(['granted', 'denied'], 'approval decision')), subject: opt(optText), note: opt(optText) },
  diff: { files_changed: opt(count), lines_added: opt(count), lines_removed: opt(count), revision_before: opt(optText), revision_after: opt(optText), paths: opt(texts) },
  artifact: {
    artifact: req(text),
    artifact_kind: req(text),
    observation: req(oneOf(['exists', 'schema_valid', 'sections_present', 'approved', 'reviewed', 'current', 'relationship_valid'], 'artifact observation')),
    holds: opt(bool),
    detail: opt(optText),
  },
  verification: { claim: req(kebabId('claim')), verifier: req(verifier), status: req(STATUS), subject: opt(optText), counterexamples: opt(sequence) },
  specification: { artifact: opt(optText), satisfied: req(bool), requirements_total: opt(optional(count)), requirements_satisfied: opt(optional(count)), unsatisfied: opt(texts) },
  ess_conformance: {
    specification: req(text),
    spec_digest: req(hexDigest('specification digest', 16, 64)),
    implementation: req(text),
    status: req(STATUS),
    scenarios_total: opt(count),
    scenarios_failed: opt(count),
    suite_version: opt(optText),
    compiler_version: opt(optText),
    generator_version: opt(optText),
    failed_scenarios: opt(texts),
  },
  trace_conformance: {
    specification: req(text),
    spec_digest: req(hexDigest('specification digest', 16, 64)),
    transcript_digest: req(hexDigest('transcript digest', 64, 64)),
    status: req(STATUS),
    expectations_total: opt(count),
    expectations_gapped: opt(count),
    expectations_unknown: opt(count),
    advisory_overrides: opt(texts),
    adapter: opt(optText),
    gapped_expectations: opt(texts),
  },
}

/** Why a kind's payload is not checked here: the record is neither accepted nor refused. */
export const UNCHECKED_PAYLOADS: Partial<Record<EvidenceKindName, string>> = {
  review: 'the review payload is not modelled by this tool',
  review_outcome: 'the review_outcome payload is not modelled by this tool',
  ess_conformance_v2: "admitting ESS sources needs the engine's ESS source reader",
  ess_conformance_coverage_v1: "admitting ESS coverage sources needs the engine's ESS coverage reader",
}

/** The closed envelope of the two ESS source kinds (upstream checks these keys before anything else). */
export const ESS_SOURCE_KEYS: Partial<Record<EvidenceKindName, readonly string[]>> = {
  ess_conformance_v2: ['kind', 'report_json', 'suite_json', 'observed_at', 'producer', 'about', 'envelope_subject', 'provenance'],
  ess_conformance_coverage_v1: ['kind', 'report_json', 'suite_input_json', 'observed_at', 'producer', 'about', 'envelope_subject', 'provenance'],
}

/** `Provenance` (`deny_unknown_fields`), keys in upstream's order. */
export const PROVENANCE_FIELDS: Readonly<Record<string, FieldRule>> = {
  command: opt(optText),
  tool: opt(optional(dottedId('tool'))),
  revision: opt(optText),
  workspace: opt(optText),
  environment: opt(optional(environment)),
  digest: opt(optText),
  inputs: opt(texts),
}

/** `Producer`, tagged by `producer`: each variant's one field. */
export const PRODUCER_VARIANTS: Readonly<Record<string, readonly [string, ValueCheck]>> = {
  agent: ['id', text],
  human: ['id', text],
  tool: ['tool', dottedId('tool')],
  harness: ['id', text],
  verifier: ['verifier', verifier],
}
