import { JsonNumber, RustFloat, formatRustF64 } from './float.js'

/**
 * JSON as serde_json's `Value` sees it. Upstream maps are `BTreeMap`s, so a value it re-serializes
 * comes out with sorted keys; an integral float keeps its `.0`; a u64 keeps every digit. These
 * helpers reproduce that so values such as `tool.requested.input` survive byte for byte.
 */

/** Orders strings by code point, which is the byte order of their UTF-8 (Rust's `String` order). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // Surrogates (U+D800..DFFF) encode code points above U+FFFF, which sort after U+E000..FFFF.
    const xHigh = x >= 0xd800 && x <= 0xdfff
    const yHigh = y >= 0xd800 && y <= 0xdfff
    if (xHigh !== yHigh) return xHigh ? 1 : -1
    return x - y
  }
  return a.length - b.length
}

/** Prints a number as serde_json would print the `Value` it came from. */
export function formatJsonNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) {
    return Object.is(value, -0) ? '0' : String(value)
  }
  return formatRustF64(value)
}

// What JSON.stringify escapes in a string: a quote, a backslash, controls and lone surrogates.
// Paired surrogates are left to it too: rare, and it knows which are lone.
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/

/** `JSON.stringify(text)`, twice as fast for the common string that needs no escape. */
export function quoteJsonString(text: string): string {
  return needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`
}

/** One scalar's text; undefined for an array or object, which the writer opens itself. */
function scalarJson(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null'
  switch (typeof value) {
    case 'string':
      return quoteJsonString(value)
    case 'number':
      return formatJsonNumber(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'bigint':
      return value.toString()
    case 'object':
      if (value instanceof JsonNumber) return value.text
      if (value instanceof RustFloat) return formatRustF64(value.value)
      return undefined
    default:
      return 'null'
  }
}

/** A piece of output already decided (punctuation, a key) or a value still to write. */
type WriteStep = { text: string } | { value: unknown }

/**
 * Compact JSON with keys sorted by code point, recursively: serde_json's `Value` output. A value
 * nested thousands deep cannot exhaust the call stack (deep values are written with a stack).
 */
export function writeSortedJson(value: unknown): string {
  return writeNested(value, 0)
}

// Recursion is several times faster than the explicit stack; past this depth the stack takes over.
const RECURSION_DEPTH = 64

/** `writeSortedJson` by recursion, handing a value nested deeper than `RECURSION_DEPTH` to the stack. */
function writeNested(value: unknown, depth: number): string {
  const scalar = scalarJson(value)
  if (scalar !== undefined) return scalar
  if (depth >= RECURSION_DEPTH) return writeSortedJsonByStack(value)
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ','
      out += writeNested(value[i], depth + 1)
    }
    return `${out}]`
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  if (keys.length > 1) keys.sort(compareCodePoints)
  let out = '{'
  let first = true
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string
    const item = record[key]
    if (item === undefined) continue
    out += `${first ? '' : ','}${quoteJsonString(key)}:${writeNested(item, depth + 1)}`
    first = false
  }
  return `${out}}`
}

/**
 * `writeSortedJson` with an explicit stack, so a value nested thousands deep cannot exhaust the
 * call stack. Internal; exported so a test holds it equal to the recursive writer.
 * @internal
 */
export function writeSortedJsonByStack(value: unknown): string {
  let out = ''
  const stack: WriteStep[] = [{ value }]
  while (stack.length > 0) {
    const step = stack.pop() as WriteStep
    if ('text' in step) {
      out += step.text
      continue
    }
    const scalar = scalarJson(step.value)
    if (scalar !== undefined) {
      out += scalar
      continue
    }
    if (Array.isArray(step.value)) {
      const items = step.value
      out += '['
      stack.push({ text: ']' })
      for (let i = items.length - 1; i >= 0; i--) {
        stack.push({ value: items[i] })
        if (i > 0) stack.push({ text: ',' })
      }
      continue
    }
    const record = step.value as Record<string, unknown>
    const keys = Object.keys(record).filter((key) => record[key] !== undefined)
    keys.sort(compareCodePoints)
    out += '{'
    stack.push({ text: '}' })
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      stack.push({ value: record[key] })
      stack.push({ text: `${i > 0 ? ',' : ''}${quoteJsonString(key)}:` })
    }
  }
  return out
}

// A cheap native pre-filter: an integral fraction (`2.0`), an exponent, or 16+ digits anywhere.
// Non-integral numbers print the same from their value, so only these can need the lexeme.
const mayHoldLossyNumber = /[0-9](?:\.0+(?![0-9])|[eE]|[0-9]{15})/

/**
 * Whether the text holds a number lexeme (outside strings) that upstream might print differently
 * from JavaScript: a fraction or exponent, or 16+ digits. One scan; strings are skipped.
 */
function needsLosslessParse(text: string): boolean {
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // Skip the string, honouring escapes.
      for (i++; i < length; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x5c) i++
        else if (d === 0x22) break
      }
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      const start = i
      for (; i < length; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x2e || d === 0x65 || d === 0x45) return true
        if (!((d >= 0x30 && d <= 0x39) || d === 0x2d || d === 0x2b)) break
      }
      if (i - start >= 16) return true
      i--
    }
  }
  return false
}

/**
 * Parses JSON text, keeping numbers whose upstream printing differs from JavaScript's as
 * `JsonNumber`s. Throws `SyntaxError` on invalid JSON, like `JSON.parse`.
 */
export function parseJsonLossless(text: string): unknown {
  if (!mayHoldJsonNumberLexeme(text)) return JSON.parse(text)
  return parseJsonLosslessScanned(text)
}

/**
 * A test that holds wherever the lossless parser would keep a `JsonNumber`: a number where JSON
 * puts one (after `:`, `,` or `[`, or opening the document) with an exponent, an all-zero fraction
 * before the number's end, or 16+ digits and dots (an integer past 2^53, or a fraction long enough
 * to round to an integer). Unlike `mayHoldLossyNumber` it does not fire on the digits of a
 * timestamp or an id inside a string, so most lines skip the character scan.
 */
function mayHoldJsonNumberLexeme(text: string): boolean {
  return opensWithNumber(text) || foundOpeningValue(LONG_RUN, text, true) || foundOpeningValue(ZERO_FRACTION, text, false) || foundOpeningValue(EXPONENT, text, false)
}

// Each pattern opens with a literal or a run of fixed length, which V8's regexp engine skips
// through many characters at a time. One alternation led by a class (`[:,[]`, where values open)
// read every character instead, at a fifth of the cost of `JSON.parse` itself on Claude lines;
// where a value opens is now asked of each match.
const LONG_RUN = new RegExp('[0-9.]'.repeat(16), 'g')
const ZERO_FRACTION = /\.0+(?=[ \t\n\r,\]}]|$)/g
const EXPONENT = /[0-9][eE][-+0-9]/g

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}

function isDigitOrDot(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e
}

/** Whether the document itself is a number: whitespace, then a sign or a digit. */
function opensWithNumber(text: string): boolean {
  // Nearly every line opens an object.
  if (text.charCodeAt(0) === 0x7b) return false
  let i = 0
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++
  const c = text.charCodeAt(i)
  return c === 0x2d || (c >= 0x30 && c <= 0x39)
}

/**
 * Whether a match of `pattern` lies in a number that opens a JSON value. `skipRun`: every match in
 * one run of digits and dots opens the same way, so after one that does not, the search resumes
 * past the run (a long run of digits inside a string is then read once, not once per digit).
 */
function foundOpeningValue(pattern: RegExp, text: string, skipRun: boolean): boolean {
  pattern.lastIndex = 0
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (opensValueBefore(text, match.index)) return true
    let next = match.index + 1
    if (skipRun) while (next < text.length && isDigitOrDot(text.charCodeAt(next))) next++
    pattern.lastIndex = next
  }
  return false
}

/**
 * Whether the digits and dots that run back from `at` open a JSON value: past an optional minus
 * and whitespace, the text starts there or holds `:`, `,` or `[`.
 */
function opensValueBefore(text: string, at: number): boolean {
  let i = at - 1
  while (i >= 0 && isDigitOrDot(text.charCodeAt(i))) i--
  if (i >= 0 && text.charCodeAt(i) === 0x2d) i--
  while (i >= 0 && isJsonSpace(text.charCodeAt(i))) i--
  if (i < 0) return true
  const c = text.charCodeAt(i)
  return c === 0x3a || c === 0x2c || c === 0x5b
}

/**
 * `parseJsonLossless` without its first native test: the scan alone decides. Internal; a property
 * test holds the two equal.
 * @internal
 */
export function parseJsonLosslessScanned(text: string): unknown {
  if (!mayHoldLossyNumber.test(text) || !needsLosslessParse(text)) return JSON.parse(text)
  // Validate with the native parser first so errors read the same on both paths.
  JSON.parse(text)
  return new LosslessParser(text).parseDocument()
}

const U64_MAX = 18446744073709551615n
const I64_MIN = -9223372036854775808n

/** The deepest nesting the lossless parser follows; deeper is a `SyntaxError`, not a stack overflow. */
export const MAX_JSON_DEPTH = 1000

class LosslessParser {
  private at = 0
  private depth = 0

  private enter(): void {
    this.depth += 1
    if (this.depth > MAX_JSON_DEPTH) throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels at position ${this.at}`)
  }

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const value = this.parseValue()
    this.skipSpace()
    return value
  }

  private skipSpace(): void {
    const text = this.text
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++
      else break
    }
  }

  private parseValue(): unknown {
    this.skipSpace()
    const c = this.text[this.at]
    if (c === '{' || c === '[') {
      this.enter()
      const value = c === '{' ? this.parseObject() : this.parseArray()
      this.depth -= 1
      return value
    }
    if (c === '"') return this.parseString()
    if (c === 't') return this.literal('true', true)
    if (c === 'f') return this.literal('false', false)
    if (c === 'n') return this.literal('null', null)
    return this.parseNumber()
  }

  private literal<T>(word: string, value: T): T {
    this.at += word.length
    return value
  }

  private parseObject(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    this.at++
    this.skipSpace()
    if (this.text[this.at] === '}') {
      this.at++
      return out
    }
    for (;;) {
      this.skipSpace()
      const key = this.parseString()
      this.skipSpace()
      this.at++ // ':'
      const value = this.parseValue()
      // defineProperty keeps a "__proto__" key an ordinary key, as JSON.parse does.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
      this.skipSpace()
      if (this.text[this.at++] === '}') return out
    }
  }

  private parseArray(): unknown[] {
    const out: unknown[] = []
    this.at++
    this.skipSpace()
    if (this.text[this.at] === ']') {
      this.at++
      return out
    }
    for (;;) {
      out.push(this.parseValue())
      this.skipSpace()
      if (this.text[this.at++] === ']') return out
    }
  }

  private parseString(): string {
    const start = this.at
    this.at++
    const text = this.text
    let escaped = false
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at)
      if (c === 0x5c) {
        escaped = true
        this.at += 2
      } else if (c === 0x22) break
      else this.at++
    }
    this.at++
    // The text was validated whole: a string with no escape is its own characters.
    return escaped ? (JSON.parse(text.slice(start, this.at)) as string) : text.slice(start + 1, this.at - 1)
  }

  private parseNumber(): number | JsonNumber {
    const start = this.at
    const text = this.text
    while (this.at < text.length && /[-+0-9.eE]/.test(text[this.at] as string)) this.at++
    const lexeme = text.slice(start, this.at)
    const value = Number(lexeme)
    if (!/[.eE]/.test(lexeme)) {
      if (Number.isSafeInteger(value)) return value
      const big = BigInt(lexeme)
      if (big <= U64_MAX && big >= I64_MIN) return new JsonNumber(value, big.toString())
      return new JsonNumber(value, formatRustF64(value))
    }
    const rust = formatRustF64(value)
    return rust === formatJsonNumber(value) ? value : new JsonNumber(value, rust)
  }
}
