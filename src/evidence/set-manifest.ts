import { parse } from 'yaml'
import { z } from 'zod'
import { sha256Hex } from '../events/digest.js'
import type { VerificationStatus } from './types.js'

/** The manifest's own format name: versioned, so a later layout is refused rather than misread. */
export const EVIDENCE_SET_FORMAT = 'vitest-harness.evidence-set/1'

/** The manifest's file name inside a set; no evidence document is ever named so. */
export const EVIDENCE_SET_MANIFEST = 'evidence-set.json'

/** Names a set may hold: one flat folder, nothing hidden, nothing that climbs. */
export const SET_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/

/** An evidence document (`*.evidence.yaml|json`) as opposed to a companion file (`*.line.json`). */
export const EVIDENCE_DOCUMENT_NAME = /\.evidence\.(yaml|json)$/

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex sha256')

export const evidenceSetManifestSchema = z.strictObject({
  format: z.literal(EVIDENCE_SET_FORMAT),
  run_id: z.string().regex(SET_FILE_NAME, 'a run id is a plain folder name'),
  /** Every record of every evidence document of the set. */
  records: z.number().int().nonnegative(),
  /** Records by their `status`, for the kinds that state one (`trace_conformance`). */
  counts: z.strictObject({ passed: z.number().int().nonnegative(), failed: z.number().int().nonnegative(), inconclusive: z.number().int().nonnegative() }),
  /** Every file of the set but the manifest: name → sha256 of its bytes. */
  documents: z.record(z.string().regex(SET_FILE_NAME), sha256),
})

export type EvidenceSetManifest = z.infer<typeof evidenceSetManifestSchema>
export type StatusCounts = Record<VerificationStatus, number>

/** One file of a set, as written. */
export interface EvidenceSetFile {
  readonly name: string
  readonly bytes: string | Uint8Array
}

const STATUSES: readonly VerificationStatus[] = ['passed', 'failed', 'inconclusive']

/** How many records a set's documents hold, and how many of them state each status. */
export interface RecordCounts {
  readonly records: number
  readonly counts: StatusCounts
}

/**
 * The records of a set's evidence documents, read back from their bytes (YAML or JSON: a list of
 * records). A document that cannot be read counts nothing: intake refuses it on its own terms.
 */
export function countRecords(files: readonly EvidenceSetFile[]): RecordCounts {
  const counts: StatusCounts = { passed: 0, failed: 0, inconclusive: 0 }
  let total = 0
  for (const file of files) {
    if (!EVIDENCE_DOCUMENT_NAME.test(file.name)) continue
    let records: unknown
    try {
      records = parse(typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes).toString('utf8'))
    } catch {
      continue
    }
    if (!Array.isArray(records)) continue
    total += records.length
    for (const record of records) {
      const status = (record as { status?: unknown } | null)?.status
      if (typeof status === 'string' && (STATUSES as readonly string[]).includes(status)) counts[status as VerificationStatus] += 1
    }
  }
  return { records: total, counts }
}

/** The manifest of a set of files: written last, so a set without one was never finished. */
export function evidenceSetManifest(runId: string, files: readonly EvidenceSetFile[]): EvidenceSetManifest {
  const documents: Record<string, string> = {}
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) documents[file.name] = sha256Hex(file.bytes)
  return { format: EVIDENCE_SET_FORMAT, run_id: runId, ...countRecords(files), documents }
}

export function renderEvidenceSetManifest(manifest: EvidenceSetManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`
}
