import { ownEntry } from '../util/own.js'
import {
  bool,
  count,
  dottedId,
  environment,
  hexDigest,
  jsonDocument,
  kebabId,
  number,
  oneOf,
  optional,
  seed,
  sequence,
  sequenceOf,
  struct,
  suite,
  tagged,
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
  return (EVIDENCE_KINDS as readonly string[]).includes(written) ? (written as EvidenceKindName) : ownEntry(EVIDENCE_KIND_ALIASES, written)
}

export interface FieldRule {
  readonly check: ValueCheck
  readonly required?: boolean
}

const STATUS = oneOf(['passed', 'failed', 'inconclusive', 'skipped'], 'verification status')
const optText = optional(text)
const req = (check: ValueCheck): FieldRule => ({ check, required: true })
const opt = (check: ValueCheck): FieldRule => ({ check })

/** A review's `Finding` (`aep-domain/src/review.rs`, `deny_unknown_fields`). */
const FINDING = struct(
  {
    severity: req(oneOf(['info', 'low', 'medium', 'high', 'critical'], 'finding severity')),
    summary: req(text),
    location: opt(optText),
    blocking: opt(bool),
  },
  'a review finding',
)

/** `Reviewer`, tagged by `reviewer`: each variant's one field. */
const REVIEWER = tagged(
  'reviewer',
  { human: ['id', text], team: ['name', text], agent: ['id', text], automated: ['tool', dottedId('tool')] },
  'a reviewer',
)

/**
 * Each kind's payload fields (`deny_unknown_fields` upstream), from `aep-domain/src/evidence.rs`,
 * `review.rs` and the ESS source carriers. Every kind the engine accepts is here.
 */
export const PAYLOAD_FIELDS: Readonly<Record<EvidenceKindName, Readonly<Record<string, FieldRule>>>> = {
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
  // `ReviewResult` (review.rs): what was reviewed, by whom, the disposition and the findings.
  review: {
    subject: req(text),
    subject_kind: opt(optText),
    reviewer: req(REVIEWER),
    disposition: req(oneOf(['approved', 'changes_requested', 'rejected'], 'review disposition')),
    findings: opt(sequenceOf(FINDING, 'review findings')),
    reviewed_version: opt(optText),
    reviewed_revision: opt(optText),
  },
  // What became of a review (review.rs `ReviewOutcome`, spelt `no-op`, `fixed`, `escalated`), in a
  // record naming the review it is about — the `review` and `outcome` a journalled
  // review_outcome carries. The payload struct itself is not in the upstream sources this build
  // could read; this is its shape as those two places give it.
  review_outcome: {
    review: req(text),
    outcome: req(oneOf(['no-op', 'fixed', 'escalated'], 'review outcome')),
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
  // The count-stage ESS carrier: the original report/2 and suite JSON, re-admitted by the engine's
  // ESS reader (which this tool does not reproduce); here, the closed carrier and two JSON objects.
  ess_conformance_v2: {
    report_json: req(jsonDocument('ESS report')),
    suite_json: req(jsonDocument('ESS suite')),
  },
  // The coverage carrier: the original report/2 and ess-conformance-input/1 JSON. Its observation is
  // the report's completion instant, so a day is refused (see `INSTANT_ONLY_KINDS`).
  ess_conformance_coverage_v1: {
    report_json: req(jsonDocument('ESS report')),
    suite_input_json: req(jsonDocument('ESS conformance input')),
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

/**
 * Kinds whose `observed_at` must be an instant: an ESS coverage record's observation is the
 * original report's completion time, and the engine refuses a day for it (`InstantRequired`).
 */
export const INSTANT_ONLY_KINDS: ReadonlySet<EvidenceKindName> = new Set(['ess_conformance_coverage_v1'])

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
