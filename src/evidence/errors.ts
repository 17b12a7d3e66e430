/** Codes of the errors the evidence side throws (intake problems are diagnostics, not throws). */
export type EvidenceErrorCode =
  /** A `YYYY-MM-DD|EPOCH_MS` value that is neither. */
  | 'VH_EVIDENCE_TIME'
  /** A value that cannot become a record, such as a report whose digest is not a digest. */
  | 'VH_EVIDENCE_RECORD'
  /** A value the YAML writer has no spelling for. */
  | 'VH_EVIDENCE_YAML'
  /** An evidence set that could not be written or swapped in (a file where the folder should be, a bad name). */
  | 'VH_EVIDENCE_SET'

/** A record that could not be minted or written: what, and why. */
export class EvidenceError extends Error {
  readonly code: EvidenceErrorCode

  constructor(code: EvidenceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'EvidenceError'
    this.code = code
  }
}
