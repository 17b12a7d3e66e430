import { EvidenceError } from './errors.js'
import { compactProvenance } from './provenance.js'
import type { DiffRecord, EvidenceProvenance, VerifierProducer } from './types.js'

export interface ChangeSet {
  readonly filesChanged: number
  readonly linesAdded: number
  readonly linesRemoved: number
  readonly revisionBefore?: string
  readonly revisionAfter?: string
  readonly paths?: readonly string[]
}

/**
 * A `diff` record (`ChangeSet`): the working tree changed. It has no failing form — a change set
 * cannot say that nothing changed — so a caller that observed no change writes no record. Counts
 * nobody read are zero, never estimated. Throws `VH_EVIDENCE_RECORD` for a count that is not one.
 */
export function diffRecord(change: ChangeSet, observedAt: number, producer: VerifierProducer, provenance?: EvidenceProvenance): DiffRecord {
  for (const [name, value] of [['files_changed', change.filesChanged], ['lines_added', change.linesAdded], ['lines_removed', change.linesRemoved]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new EvidenceError('VH_EVIDENCE_RECORD', `${name} must be a count, got ${value}`)
  }
  return {
    kind: 'diff',
    files_changed: change.filesChanged,
    lines_added: change.linesAdded,
    lines_removed: change.linesRemoved,
    revision_before: change.revisionBefore,
    revision_after: change.revisionAfter,
    paths: change.paths && change.paths.length > 0 ? [...change.paths] : undefined,
    observed_at: observedAt,
    producer,
    provenance: compactProvenance(provenance),
  }
}
