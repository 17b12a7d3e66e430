import { resolvePlainScalar, type IntakeEntry, type IntakeValue, type Position } from './intake-read.js'

/**
 * A fast reader for the one shape AEP and this project write a record in: block mappings of
 * `key: plain-scalar` lines, nested block mappings, and block sequences of plain scalars, indented
 * with spaces, nothing else. It builds exactly the values (and positions) the `yaml`-based reader
 * would, about ten times faster — what lets 100,000 records be checked in seconds. Anything outside
 * that subset (quotes, flow style, comments after a value, block scalars, empty values, continuation lines, a key
 * written twice, a sequence of mappings…) returns `undefined`, and the record is read by `yaml`.
 */
export function readPlainRecord(text: string, lineOffset: number): IntakeValue | undefined {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const first = lines[0]
  if (first === undefined || !first.startsWith('- ')) return undefined
  // The record's mapping is the line after `- `, at column 3: read it as if indented by two.
  const rows: Row[] = []
  for (let index = 0; index < lines.length; index++) {
    const row = parseRow(index === 0 ? `  ${first.slice(2)}` : (lines[index] as string), index + 1 + lineOffset)
    if (!row) return undefined
    if (row !== SKIP) rows.push(row)
  }
  const reader = new RowReader(rows)
  const map = reader.mapping(2)
  if (!map || reader.position !== rows.length) return undefined
  return { type: 'seq', items: [map], at: { line: 1 + lineOffset, column: 1 } }
}

type Row =
  | { readonly kind: 'key'; readonly indent: number; readonly key: string; readonly value: string | undefined; readonly line: number; readonly valueColumn: number }
  | { readonly kind: 'item'; readonly indent: number; readonly value: string; readonly line: number; readonly valueColumn: number }

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/
// A plain scalar that means the same in every reading: no indicator first, no `: ` or ` #`
// inside, no trailing `:` or space. A leading `-` only before a digit or `.` (a negative number).
// Control characters, a BOM and non-characters are left to `yaml`, which refuses some of them.
const SAFE_SCALAR = /^(?:[A-Za-z0-9_./+~()^$;]|-[0-9.])(?:[^#'"\s{}[\],&*!|>%@`\x00-\x1f\x7f-\x9f\ufeff\ufffe\uffff]|[ ](?![ #]))*$/

function safeScalar(value: string): boolean {
  return SAFE_SCALAR.test(value) && !value.endsWith(':') && !value.endsWith(' ') && !/:(?: |$)/.test(value)
}

/** A blank line or a whole-line comment: nothing in the subset can hold one, so it means nothing. */
const SKIP = Symbol('blank or comment')

function parseRow(line: string, lineNumber: number): Row | typeof SKIP | undefined {
  let indent = 0
  while (line.charCodeAt(indent) === 0x20) indent++
  const body = line.slice(indent)
  if (body === '' || body.startsWith('#')) return SKIP
  if (body.startsWith('- ')) {
    const value = body.slice(2)
    return safeScalar(value) ? { kind: 'item', indent, value, line: lineNumber, valueColumn: indent + 3 } : undefined
  }
  const colon = body.indexOf(':')
  if (colon <= 0) return undefined
  const key = body.slice(0, colon)
  if (!KEY.test(key)) return undefined
  const rest = body.slice(colon + 1)
  if (rest === '') return { kind: 'key', indent, key, value: undefined, line: lineNumber, valueColumn: 0 }
  if (!rest.startsWith(' ')) return undefined
  const value = rest.slice(1)
  return safeScalar(value) ? { kind: 'key', indent, key, value, line: lineNumber, valueColumn: indent + colon + 3 } : undefined
}

class RowReader {
  position = 0

  constructor(private readonly rows: readonly Row[]) {}

  private peek(): Row | undefined {
    return this.rows[this.position]
  }

  /** A block mapping whose keys sit at `indent`; undefined where the rows are not one. */
  mapping(indent: number): IntakeValue | undefined {
    const start = this.peek()
    if (!start || start.kind !== 'key' || start.indent !== indent) return undefined
    const at: Position = { line: start.line, column: indent + 1 }
    const entries: IntakeEntry[] = []
    const seen = new Set<string>()
    for (let row = this.peek(); row && row.indent === indent && row.kind === 'key'; row = this.peek()) {
      if (seen.has(row.key)) return undefined
      seen.add(row.key)
      this.position++
      const keyAt = { line: row.line, column: indent + 1 }
      let value: IntakeValue | undefined
      if (row.value !== undefined) value = resolvePlainScalar(row.value, { line: row.line, column: row.valueColumn })
      else value = this.nested(indent)
      if (!value) return undefined
      entries.push({ key: row.key, keyAt, value })
    }
    const next = this.peek()
    // A row deeper than this mapping's keys that no key took, or an item among keys: not the subset.
    if (next && (next.indent > indent || (next.indent === indent && next.kind === 'item'))) return undefined
    return { type: 'map', entries, at }
  }

  /** What follows `key:`: a deeper mapping, or a sequence at the key's indent or deeper. An empty value is left to `yaml`. */
  private nested(keyIndent: number): IntakeValue | undefined {
    const next = this.peek()
    if (!next) return undefined
    if (next.kind === 'key') return next.indent > keyIndent ? this.mapping(next.indent) : undefined
    if (next.indent < keyIndent) return undefined
    const itemIndent = next.indent
    const items: IntakeValue[] = []
    const at: Position = { line: next.line, column: itemIndent + 1 }
    for (let row = this.peek(); row && row.kind === 'item' && row.indent === itemIndent; row = this.peek()) {
      this.position++
      items.push(resolvePlainScalar(row.value, { line: row.line, column: row.valueColumn }))
    }
    return { type: 'seq', items, at }
  }
}
