import { EVIDENCE_KINDS, type EvidenceKindName } from './intake-kinds.js'

const AEP_1_EXCLUDED: readonly EvidenceKindName[] = ['review_outcome', 'ess_conformance', 'ess_conformance_v2', 'ess_conformance_coverage_v1', 'trace_conformance']

/** The evidence kinds protocol `aep/1` declares (`website/docs/reference/vocabulary.md`). */
export const AEP_1_EVIDENCE_KINDS: readonly EvidenceKindName[] = EVIDENCE_KINDS.filter((kind) => !AEP_1_EXCLUDED.includes(kind))

/** The evidence kinds protocol `adp/1` declares: `aep/1`'s, then `ess_conformance` and `trace_conformance`. */
export const ADP_1_EVIDENCE_KINDS: readonly EvidenceKindName[] = [...AEP_1_EVIDENCE_KINDS, 'ess_conformance', 'trace_conformance']
