/**
 * Splits an evidence document written as a block list (`- kind: …` at column 0, as AEP and this
 * project write it) into one text per record, so each is parsed and checked on its own and the
 * document's size costs no more than its largest record. Anything this cannot split for certain —
 * an anchor or alias (which may cross records), a directive, a second document, flow style, a line
 * at column 0 that is not a record's start — returns `undefined`, and the whole document is read at
 * once, as before.
 */
export type RecordSplit =
  | { readonly kind: 'records'; readonly records: readonly RecordText[] }
  /** The first content line is a mapping key at column 0: the document is a mapping, not a list. */
  | { readonly kind: 'mapping'; readonly line: number }

export interface RecordText {
  readonly text: string
  /** The one-based line the record starts on. */
  readonly line: number
}

const RECORD_START = /^-(?: |$)/
const MAPPING_KEY = /^[A-Za-z_][\w.-]*:(?: |$)/

export function splitEvidenceRecords(text: string): RecordSplit | undefined {
  if (/[&*]/.test(text) || text.includes('\t') || text.includes('\r')) return undefined
  const records: RecordText[] = []
  let start = -1
  let startLine = 0
  let line = 0
  let offset = 0
  let seenContent = false
  while (offset <= text.length) {
    const end = text.indexOf('\n', offset)
    const stop = end === -1 ? text.length : end
    line += 1
    const first = text.charCodeAt(offset)
    const atColumnZero = stop > offset && first !== 0x20 && first !== 0x23 // not blank, not indented, not a comment
    if (atColumnZero) {
      const lineText = text.slice(offset, Math.min(stop, offset + 256))
      if (RECORD_START.test(lineText)) {
        if (start !== -1) records.push({ text: text.slice(start, offset), line: startLine })
        start = offset
        startLine = line
        seenContent = true
      } else if (!seenContent && lineText === '---') {
        // The document's start marker, before anything else.
      } else if (!seenContent && MAPPING_KEY.test(lineText)) {
        return { kind: 'mapping', line }
      } else return undefined
    } else if (stop > offset && first === 0x20 && start === -1) return undefined
    if (end === -1) break
    offset = end + 1
  }
  if (start === -1) return undefined
  records.push({ text: text.slice(start), line: startLine })
  return { kind: 'records', records }
}
