import { EvidenceError } from './errors.js'

/**
 * YAML exactly as serde_yaml 0.9 writes it (`serde_yaml::to_string`), which is how AEP writes an
 * evidence document: block style, two-space indent, sequences inside a mapping not indented,
 * `[]`/`{}` for empty collections, no document marker, unlimited line width, Unicode unescaped.
 * A string is plain unless serde_yaml would read it back as something else (`'12'`, `'true'`,
 * `''`) or libyaml's scalar analysis forbids plain style (indicators, leading or trailing space),
 * then single-quoted, then double-quoted with escapes; a multi-line string is a literal block.
 *
 * Values are JSON-shaped: objects (keys in insertion order), arrays, strings, integers (number or
 * bigint), booleans, null. `undefined` object fields are skipped, as `skip_serializing_if` does.
 */
export function writeSerdeYaml(value: unknown): string {
  const out: string[] = []
  if (isBlockCollection(value)) emitBlock(value, 0, out, '')
  else out.push(`${scalarText(value, false, 0)}\n`)
  return out.join('')
}

type Collection = readonly unknown[] | Readonly<Record<string, unknown>>

function entries(map: Readonly<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(map).filter(([, item]) => item !== undefined)
}

function isBlockCollection(value: unknown): value is Collection {
  if (Array.isArray(value)) return value.length > 0
  return isMapping(value) && entries(value).length > 0
}

function isMapping(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Emits a non-empty collection at `indent`. `lead` is what precedes its first line (`- ` when the
 * collection is a sequence item, nothing when it starts on a fresh line).
 */
function emitBlock(value: Collection, indent: number, out: string[], lead: string): void {
  const pad = ' '.repeat(indent)
  let first = true
  const linePrefix = (): string => {
    const prefix = first ? lead || pad : pad
    first = false
    return prefix
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const prefix = `${linePrefix()}- `
      if (isBlockCollection(item)) emitBlock(item, indent + 2, out, prefix)
      else out.push(`${prefix}${scalarText(item, false, indent + 2)}\n`)
    }
    return
  }
  for (const [key, item] of entries(value as Readonly<Record<string, unknown>>)) {
    const prefix = `${linePrefix()}${keyText(key)}:`
    if (Array.isArray(item) && item.length > 0) {
      out.push(`${prefix}\n`)
      // libyaml writes a sequence that is a mapping value at the mapping's own indent.
      emitBlock(item, indent, out, '')
    } else if (isBlockCollection(item)) {
      out.push(`${prefix}\n`)
      emitBlock(item, indent + 2, out, '')
    } else {
      out.push(`${prefix} ${scalarText(item, false, indent + 2)}\n`)
    }
  }
}

function keyText(key: string): string {
  if (key.length > 128 || /[\n\r\u0085\u2028\u2029]/.test(key)) {
    throw new EvidenceError('VH_EVIDENCE_YAML', `the key ${JSON.stringify(key.slice(0, 40))} would need YAML's complex-key form, which no evidence record uses`)
  }
  return scalarText(key, true, 0)
}

function scalarText(value: unknown, simpleKey: boolean, indent: number): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return '[]'
  if (isMapping(value)) return '{}'
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false'
    case 'bigint':
      return value.toString()
    case 'number':
      if (!Number.isSafeInteger(value)) throw new EvidenceError('VH_EVIDENCE_YAML', `${value} is not an integer an evidence record carries`)
      return String(value)
    case 'string':
      return stringText(value, simpleKey, indent)
    default:
      throw new EvidenceError('VH_EVIDENCE_YAML', `a ${typeof value} has no YAML spelling in an evidence record`)
  }
}

// ---- serde_yaml: which strings must not be plain because they would read back as another type

function isNull(text: string): boolean {
  return text === '' || text === '~' || text === 'null' || text === 'Null' || text === 'NULL'
}

function isBool(text: string): boolean {
  return ['true', 'True', 'TRUE', 'false', 'False', 'FALSE'].includes(text)
}

/** serde_yaml's `digits_but_not_number`: a leading zero followed by digits is a string in YAML 1.2. */
function digitsButNotNumber(text: string): boolean {
  const unsigned = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text
  return unsigned.length > 1 && unsigned.startsWith('0') && /^[0-9]+$/.test(unsigned.slice(1))
}

function isInteger(text: string): boolean {
  const unsigned = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text
  if (/^0x[0-9a-fA-F]+$/.test(unsigned) || /^0o[0-7]+$/.test(unsigned) || /^0b[01]+$/.test(unsigned)) return true
  if (!/^[0-9]+$/.test(unsigned) || digitsButNotNumber(text)) return false
  // Beyond i128 serde_yaml falls through to the float parse, which is finite until ~1.8e308.
  return Number.isFinite(Number(unsigned))
}

/** Rust's `f64::from_str` grammar, finite results only (serde_yaml's `parse_f64`). */
function isFiniteFloat(text: string): boolean {
  if (['.inf', '.Inf', '.INF', '-.inf', '-.Inf', '-.INF', '.nan', '.NaN', '.NAN'].includes(text)) return true
  if (text.startsWith('+.') && ['inf', 'Inf', 'INF'].includes(text.slice(2))) return true
  const unsigned = text.startsWith('+') ? text.slice(1) : text
  if (text.startsWith('+') && (unsigned.startsWith('+') || unsigned.startsWith('-'))) return false
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(unsigned)) return false
  return Number.isFinite(Number(unsigned))
}

function readsAsNonString(text: string): boolean {
  if (isNull(text) || isBool(text) || digitsButNotNumber(text)) return true
  return isInteger(text) || isFiniteFloat(text)
}

// ---- libyaml: scalar analysis and style selection

function isPrintable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
}

function isBreak(cp: number): boolean {
  return cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029
}

function isBlankOrEnd(cp: number | undefined): boolean {
  return cp === undefined || cp === 0x20 || cp === 0x09 || isBreak(cp)
}

interface Analysis {
  multiline: boolean
  blockPlainAllowed: boolean
  singleQuotedAllowed: boolean
  blockAllowed: boolean
}

function analyze(text: string): Analysis {
  const cps = Array.from(text, (char) => char.codePointAt(0) as number)
  if (cps.length === 0) return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false }
  let blockIndicators = text.startsWith('---') || text.startsWith('...')
  let lineBreaks = false
  let special = false
  let leadingSpace = false
  let leadingBreak = false
  let trailingSpace = false
  let trailingBreak = false
  let breakSpace = false
  let spaceBreak = false
  let previousSpace = false
  let previousBreak = false
  let precededByWhitespace = true
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i] as number
    const followedByWhitespace = isBlankOrEnd(cps[i + 1])
    const char = String.fromCodePoint(cp)
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(char)) blockIndicators = true
      if ((char === '?' || char === ':') && followedByWhitespace) blockIndicators = true
      if (char === '-' && followedByWhitespace) blockIndicators = true
    } else {
      if (char === ':' && followedByWhitespace) blockIndicators = true
      if (char === '#' && precededByWhitespace) blockIndicators = true
    }
    if (!isPrintable(cp)) special = true
    if (isBreak(cp)) lineBreaks = true
    if (cp === 0x20) {
      if (i === 0) leadingSpace = true
      if (i === cps.length - 1) trailingSpace = true
      if (previousBreak) breakSpace = true
      previousSpace = true
      previousBreak = false
    } else if (isBreak(cp)) {
      if (i === 0) leadingBreak = true
      if (i === cps.length - 1) trailingBreak = true
      if (previousSpace) spaceBreak = true
      previousSpace = false
      previousBreak = true
    } else {
      previousSpace = false
      previousBreak = false
    }
    precededByWhitespace = isBlankOrEnd(cp)
  }
  let blockPlainAllowed = true
  let singleQuotedAllowed = true
  let blockAllowed = true
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false
  if (trailingSpace) blockAllowed = false
  if (breakSpace) {
    blockPlainAllowed = false
    singleQuotedAllowed = false
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false
    singleQuotedAllowed = false
    blockAllowed = false
  }
  if (lineBreaks) blockPlainAllowed = false
  if (blockIndicators) blockPlainAllowed = false
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed }
}

type Style = 'plain' | 'single' | 'double' | 'literal'

function stringText(text: string, simpleKey: boolean, indent: number): string {
  const requested: Style = /[\n]/.test(text) ? 'literal' : readsAsNonString(text) ? 'single' : 'plain'
  const analysis = analyze(text)
  let style: Style = requested
  if (simpleKey && analysis.multiline) style = 'double'
  if (style === 'plain') {
    if (!analysis.blockPlainAllowed) style = 'single'
    if (text.length === 0 && simpleKey) style = 'single'
  }
  if (style === 'single' && !analysis.singleQuotedAllowed) style = 'double'
  if (style === 'literal' && (!analysis.blockAllowed || simpleKey)) style = 'double'
  switch (style) {
    case 'plain':
      return text
    case 'single':
      return `'${text.replaceAll("'", "''")}'`
    case 'double':
      return doubleQuoted(text)
    case 'literal':
      return literalBlock(text, indent)
  }
}

const ESCAPES: Record<number, string> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0x2028: 'L',
  0x2029: 'P',
}

function doubleQuoted(text: string): string {
  let out = '"'
  for (const char of text) {
    const cp = char.codePointAt(0) as number
    if (!isPrintable(cp) || cp === 0xfeff || isBreak(cp) || cp === 0x22 || cp === 0x5c) {
      const short = ESCAPES[cp]
      if (short !== undefined) out += `\\${short}`
      else if (cp <= 0xff) out += `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`
      else if (cp <= 0xffff) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`
      else out += `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`
    } else {
      out += char
    }
  }
  return `${out}"`
}

/** A literal block (`|`), with libyaml's indentation and chomping hints. */
function literalBlock(text: string, indent: number): string {
  const first = text.codePointAt(0) as number
  const indentHint = first === 0x20 || isBreak(first) ? '2' : ''
  const lastBreak = isBreak(text.codePointAt(text.length - 1) as number)
  const beforeLastBreak = text.length > 1 && isBreak(text.codePointAt(text.length - 2) as number)
  const chomp = !lastBreak ? '-' : text.length === 1 || beforeLastBreak ? '+' : ''
  const pad = ' '.repeat(indent)
  const body = (lastBreak ? text.slice(0, -1) : text)
    .split('\n')
    .map((line) => (line.length > 0 ? `${pad}${line}` : ''))
    .join('\n')
  return `|${indentHint}${chomp}\n${body}`
}
