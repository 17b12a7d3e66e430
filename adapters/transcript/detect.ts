import '../builtin-formats.js'
import { isBlank } from '../../src/events/lines.js'
import { TranscriptError } from '../errors.js'
import { findFormat, formatNames, transcriptFormats, type TranscriptFormat } from '../formats.js'
import { isObject, type JsonObject } from '../shared/fields.js'
import { parseRecordLine } from '../shared/line-projector.js'

/** How many leading lines `detect` reads. */
export const DETECT_LINES = 32

/**
 * What the first lines say of a transcript's format.
 * - `detected`: one format claims the deciding record — with a `certain` sniff, or a `likely` one
 *   another of the first records bears out (`corroborated`).
 * - `ambiguous`: two or more formats claim the deciding record.
 * - `uncertain`: a format fits, but only a later record fits it (`later_record`), or its sniff is
 *   weak and nothing else in the first lines bears it out (`weak_sniff`).
 * - `none`: no format fits any of the first records.
 * The deciding record is the first JSON-object line, or the whole text when that is one JSON
 * document (several lines making one object).
 */
export type Detection =
  | { readonly outcome: 'detected'; readonly format: TranscriptFormat; readonly confidence: 'certain' | 'corroborated' }
  | { readonly outcome: 'ambiguous'; readonly candidates: readonly string[]; readonly line: number | null }
  | { readonly outcome: 'uncertain'; readonly candidates: readonly string[]; readonly line: number | null; readonly why: 'later_record' | 'weak_sniff' }
  | { readonly outcome: 'none' }

interface NumberedRecord {
  readonly record: JsonObject
  readonly line: number
}

function claimants(formats: readonly TranscriptFormat[], record: JsonObject): TranscriptFormat[] {
  return formats.filter((format) => format.sniff(record))
}

/** One claimant's detection: certain, corroborated by another record, or uncertain. */
function judged(format: TranscriptFormat, deciding: NumberedRecord | null, whole: JsonObject, others: readonly NumberedRecord[]): Detection {
  const confidence = format.sniffConfidence?.(whole) ?? 'certain'
  if (confidence === 'certain') return { outcome: 'detected', format, confidence: 'certain' }
  if (others.some(({ record }) => format.sniff(record))) return { outcome: 'detected', format, confidence: 'corroborated' }
  return { outcome: 'uncertain', candidates: [format.name], line: deciding?.line ?? null, why: 'weak_sniff' }
}

function decide(claims: readonly TranscriptFormat[], deciding: NumberedRecord | null, whole: JsonObject, others: readonly NumberedRecord[]): Detection | undefined {
  if (claims.length > 1) return { outcome: 'ambiguous', candidates: claims.map((format) => format.name), line: deciding?.line ?? null }
  const only = claims[0]
  return only === undefined ? undefined : judged(only, deciding, whole, others)
}

/**
 * Weighs the first lines against every registered format (or `formats`): see `Detection`. Pure:
 * it reads only what it is given.
 */
export function detectCandidates(firstLines: readonly string[], formats: readonly TranscriptFormat[] = transcriptFormats()): Detection {
  const lineFormats = formats.filter((format) => format.kind === 'lines')
  // The weighing is given every line: a document spread over lines is parsed whole, past the first 32.
  return settledByFirstRecord(firstLines.slice(0, DETECT_LINES), lineFormats) ?? weighCandidates(firstLines, formats)
}

/**
 * `detectCandidates` without its shortcut: every one of the first lines parsed and weighed.
 * Internal; a test holds the two equal.
 * @internal
 */
export function weighCandidates(firstLines: readonly string[], formats: readonly TranscriptFormat[] = transcriptFormats()): Detection {
  const lines = firstLines.slice(0, DETECT_LINES)
  const lineFormats = formats.filter((format) => format.kind === 'lines')
  const documentFormats = formats.filter((format) => format.kind === 'documents')
  const records: NumberedRecord[] = []
  let firstLineReads = false
  let sawContent = false
  lines.forEach((line, index) => {
    if (isBlank(line)) return
    const parsed = parseRecordLine(line)
    const reads = parsed.ok && isObject(parsed.value)
    if (!sawContent) firstLineReads = reads
    sawContent = true
    if (reads) records.push({ record: parsed.value as JsonObject, line: index + 1 })
  })
  // A document spread over lines: the whole text is the deciding record, not a line inside it.
  if (!firstLineReads) {
    const whole = parseRecordLine(firstLines.join('\n'))
    if (whole.ok && isObject(whole.value)) return decide(claimants(documentFormats, whole.value), null, whole.value, []) ?? { outcome: 'none' }
    // A JSON array of records (Claude Code's `--output-format json --verbose`): its first element decides.
    if (whole.ok && Array.isArray(whole.value) && isObject(whole.value[0])) {
      const element = whole.value[0]
      return decide(documentFormats.filter((format) => format.kind === 'documents' && format.array?.sniff(element) === true), null, element, []) ?? { outcome: 'none' }
    }
  }
  const [first, ...later] = records
  if (first === undefined) return { outcome: 'none' }
  const byLine = decide(claimants(lineFormats, first.record), first, first.record, later)
  if (byLine) return byLine
  const byDocument = decide(claimants(documentFormats, first.record), first, first.record, later)
  if (byDocument) return byDocument
  // The deciding record fits nothing; a later one fitting is a guess, and a guess is not a detection.
  const fitting = lineFormats.filter((format) => later.some(({ record }) => format.sniff(record)))
  if (fitting.length === 0) return { outcome: 'none' }
  const line = later.find(({ record }) => fitting.some((format) => format.sniff(record)))?.line ?? null
  return { outcome: 'uncertain', candidates: fitting.map((format) => format.name), line, why: 'later_record' }
}

/**
 * What the first record decides alone, without the records after it: two line formats claiming
 * it, or one claiming it with certainty. Undefined where the later records could matter (a weak
 * claim, no claim, a first line that is no JSON object): the whole weighing then decides, and it
 * reaches the same answer wherever this gives one. Most transcripts stop here, having parsed one line.
 */
function settledByFirstRecord(lines: readonly string[], lineFormats: readonly TranscriptFormat[]): Detection | undefined {
  const index = lines.findIndex((line) => !isBlank(line))
  if (index === -1) return undefined
  const parsed = parseRecordLine(lines[index] as string)
  if (!parsed.ok || !isObject(parsed.value)) return undefined
  const record = parsed.value
  // Weighed with no later record: only a weak claim (uncertain) could still be borne out by one.
  const decided = decide(claimants(lineFormats, record), { record, line: index + 1 }, record, [])
  return decided?.outcome === 'uncertain' ? undefined : decided
}

/** The refusal a detection that is neither a format nor nothing becomes. */
export function detectionRefusal(detection: Extract<Detection, { outcome: 'ambiguous' | 'uncertain' }>, file: string): TranscriptError {
  const named = detection.candidates.join(', ')
  if (detection.outcome === 'ambiguous') {
    return new TranscriptError('VH_AMBIGUOUS_FORMAT', file, detection.line, `the record that decides the format fits ${detection.candidates.length} formats (${named}); name one with --from`)
  }
  const why =
    detection.why === 'later_record'
      ? `the first record fits no format; a later one fits ${named}`
      : `only a weak sign points to ${named}, and nothing else in the first lines bears it out`
  return new TranscriptError('VH_UNCERTAIN_FORMAT', file, detection.line, `${why}; name the format with --from`)
}

/** The refusal of a transcript no known format fits, listing the names `--from` takes. */
export function undetectedFormatError(file: string): TranscriptError {
  return new TranscriptError('VH_TRANSCRIPT_UNDETECTED', file, null, `no known format fits the first lines; name one with --from (${formatNames().join(', ')})`)
}

/** The format a detection found; anything else is its refusal. */
export function detectedFormat(detection: Detection, file: string): TranscriptFormat {
  if (detection.outcome === 'detected') return detection.format
  throw detection.outcome === 'none' ? undetectedFormatError(file) : detectionRefusal(detection, file)
}

/**
 * Picks the format of a transcript from its first lines: the first JSON-object line decides among
 * the line formats; a document (several lines making one JSON object) decides among the document
 * formats. Undefined when nothing fits — the caller then has to name the format. Two formats
 * claiming it, or a fit without confidence, is refused (`VH_AMBIGUOUS_FORMAT`,
 * `VH_UNCERTAIN_FORMAT`) naming the candidates.
 */
export function detect(firstLines: readonly string[], file = 'the transcript'): TranscriptFormat | undefined {
  const detection = detectCandidates(firstLines)
  if (detection.outcome === 'detected') return detection.format
  if (detection.outcome === 'none') return undefined
  throw detectionRefusal(detection, file)
}

/** `detect`, answering with the format's name. */
export function detectFormatName(firstLines: readonly string[]): string | undefined {
  return detect(firstLines)?.name
}

export { findFormat }
