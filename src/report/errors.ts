/** Why a report or a diff could not be built from what it was given. */
export type ReportErrorCode = 'VH_REPORT_NOT_JSON' | 'VH_REPORT_NOT_TRACE_REPORT' | 'VH_REPORT_NOT_REQUEST_LOG'

/** A report input refused: its code, the file and where in it, and a sentence. */
export class ReportInputError extends Error {
  constructor(
    readonly code: ReportErrorCode,
    readonly file: string,
    readonly location: string,
    readonly sentence: string,
  ) {
    super(`${file}: ${location}: ${sentence} (${code})`)
    this.name = 'ReportInputError'
  }
}
