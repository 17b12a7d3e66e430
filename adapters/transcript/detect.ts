import '../builtin-formats.js'
import { isBlank } from '../../src/events/lines.js'
import { findFormat, transcriptFormats, type TranscriptFormat } from '../formats.js'
import { isObject } from '../shared/fields.js'
import { parseRecordLine } from '../shared/line-projector.js'

/** How many leading lines `detect` reads. */
export const DETECT_LINES = 32

/**
 * Picks the format of a transcript from its first lines: the first JSON-object line decides
 * among the line formats; a document (several lines making one JSON object) decides among the
 * document formats. Undefined when nothing fits — the caller then has to name the format.
 */
export function detect(firstLines: readonly string[]): TranscriptFormat | undefined {
  const lines = firstLines.slice(0, DETECT_LINES)
  for (const line of lines) {
    if (isBlank(line)) continue
    const parsed = parseRecordLine(line)
    if (!parsed.ok || !isObject(parsed.value)) continue
    const record = parsed.value
    for (const format of transcriptFormats()) if (format.kind === 'lines' && format.sniff(record)) return format
    for (const format of transcriptFormats()) if (format.kind === 'documents' && format.sniff(record)) return format
    // The first readable record fits no line format: a later line would not change that.
    return undefined
  }
  const whole = parseRecordLine(firstLines.join('\n'))
  if (whole.ok && isObject(whole.value)) {
    for (const format of transcriptFormats()) if (format.kind === 'documents' && format.sniff(whole.value)) return format
  }
  if (whole.ok && Array.isArray(whole.value) && isObject(whole.value[0])) {
    const first = whole.value[0]
    for (const format of transcriptFormats()) if (format.kind === 'documents' && format.array?.sniff(first)) return format
  }
  return undefined
}

/** `detect`, answering with the format's name. */
export function detectFormatName(firstLines: readonly string[]): string | undefined {
  return detect(firstLines)?.name
}

export { findFormat }
