/**
 * The trace family's refusal codes (upstream's `TraceCode`, notes/aep.md §1.5) and the errors that
 * carry them. A refusal is data: a code, where (`expectations[2].expect.tool.called.count`,
 * `line[7]`, `document`, `transcript`) and a sentence, displayed `CODE at location: message`.
 */

/** Every code the trace family can produce, in upstream's declaration order. */
export const TRACE_CODES = [
  /** The specification's `format` is not `trace-spec/1`. */
  'TRACE-SPEC-001',
  /** The text does not read as the `trace-spec/1` shape at all (never accumulated with others). */
  'TRACE-SPEC-002',
  /** Two expectations share an id. */
  'TRACE-SPEC-003',
  /** The specification declares no expectations. */
  'TRACE-SPEC-004',
  /** An expectation's own parameters cannot decide anything. */
  'TRACE-SPEC-005',
  /** An id is not a stable identifier. */
  'TRACE-SPEC-006',
  /** A bound states a floor above its ceiling, or `exactly` beside either. */
  'TRACE-SPEC-007',
  /** A matcher this build cannot run (a `regex:` that does not compile). */
  'TRACE-SPEC-008',
  /** A transcript line is not UTF-8, not JSON, over the line limit, or carries another wire's tag. */
  'TRACE-ADAPT-001',
  /** A transcript holds no events at all. */
  'TRACE-ADAPT-002',
] as const

export type TraceCode = (typeof TRACE_CODES)[number]

/** One refusal: what rule broke, where, and what a reader should know. */
export interface TraceRefusal {
  readonly code: TraceCode
  /** Dotted for a document (`expectations[2].expect.tool.called.count`), `line[N]` for a transcript. */
  readonly location: string
  readonly message: string
  /** Where in the file the refused text was written (one-based), when the reader knows it. */
  readonly position?: { readonly line: number; readonly col: number }
}

/** `CODE at location: message`, as upstream displays one refusal. */
export function renderRefusal(refusal: TraceRefusal): string {
  return `${refusal.code} at ${refusal.location}: ${refusal.message}`
}

/** One refusal per line, in the order they were found. */
export function renderRefusals(refusals: readonly TraceRefusal[]): string {
  return refusals.map(renderRefusal).join('\n')
}

/** Thrown when a text is not a `trace-spec/1` specification; carries every refusal found. */
/** As `renderRefusals`, with `  --> file:line:column` under each refusal whose place in the file is known. */
function renderPlacedRefusals(refusals: readonly TraceRefusal[], source: string | undefined): string {
  return refusals.map((refusal) => (refusal.position ? `${renderRefusal(refusal)}\n  --> ${source ?? 'the document'}:${refusal.position.line}:${refusal.position.col}` : renderRefusal(refusal))).join('\n')
}

export class TraceSpecError extends Error {
  readonly code = 'VH_TRACE_SPEC'

  constructor(
    readonly refusals: readonly TraceRefusal[],
    /** The file or name the specification came from, when it had one. */
    readonly source?: string,
  ) {
    super(`${source ?? 'the document'} is not a trace-spec/1 specification — ${refusals.length} refusal(s):\n${renderPlacedRefusals(refusals, source)}`)
    this.name = 'TraceSpecError'
  }
}

/** Thrown when a transcript cannot be read; carries every refusal found (their count may exceed the list). */
export class TraceTranscriptError extends Error {
  readonly code = 'VH_TRACE_TRANSCRIPT'

  constructor(
    readonly refusals: readonly TraceRefusal[],
    /** The reader the first non-blank line chose, e.g. `metaharness.event/1`. */
    readonly format: string,
    /** How many refusals there were; more than `refusals.length` when the list was capped. */
    readonly total: number = refusals.length,
    readonly source?: string,
  ) {
    const more = total > refusals.length ? `\n… and ${total - refusals.length} more refusal(s) not listed` : ''
    super(`${source ?? 'the transcript'} is not a transcript this build can read as ${format} — ${total} refusal(s):\n${renderRefusals(refusals)}${more}`)
    this.name = 'TraceTranscriptError'
  }
}

/** Thrown when `--advisory` (or `advisory:`) names ids the specification does not declare. */
export class TraceAdvisoryError extends Error {
  readonly code = 'VH_TRACE_ADVISORY'

  constructor(
    readonly unknownIds: readonly string[],
    readonly specId: string,
  ) {
    super(
      `--advisory names ${unknownIds.length} expectation(s) \`${specId}\` does not declare: ${unknownIds.join(', ')}. ` +
        'A downgrade that matched nothing would relax nothing while looking as though it had',
    )
    this.name = 'TraceAdvisoryError'
  }
}
