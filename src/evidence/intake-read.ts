import { LineCounter, Scalar, isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node as YamlNode } from 'yaml'

/**
 * An evidence document read the way serde_yaml 0.9 reads it: plain scalars resolve as YAML 1.2
 * core does in serde_yaml (`~`/`null` → null, `true`/`false`, `0x`/`0o`/`0b` and decimal
 * integers, finite floats, a leading zero keeps digits a string), quoted scalars are strings.
 */
export type IntakeValue =
  | { readonly type: 'null'; readonly at: Position; readonly source: string }
  | { readonly type: 'bool'; readonly value: boolean; readonly at: Position; readonly source: string }
  | { readonly type: 'int'; readonly value: bigint; readonly at: Position; readonly source: string }
  | { readonly type: 'float'; readonly value: number; readonly at: Position; readonly source: string }
  | { readonly type: 'string'; readonly value: string; readonly plain: boolean; readonly at: Position; readonly source: string }
  | { readonly type: 'seq'; readonly items: readonly IntakeValue[]; readonly at: Position }
  | { readonly type: 'map'; readonly entries: readonly IntakeEntry[]; readonly at: Position }

export interface IntakeEntry {
  readonly key: string
  readonly keyAt: Position
  readonly value: IntakeValue
}

/** One-based line and column. */
export interface Position {
  readonly line: number
  readonly column: number
}

export interface ReadProblem {
  readonly code: 'NOT_YAML' | 'DUPLICATE_KEY' | 'MULTIPLE_DOCUMENTS'
  readonly at: Position
  readonly message: string
}

function digitsButNotNumber(text: string): boolean {
  const unsigned = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text
  return unsigned.length > 1 && unsigned.startsWith('0') && /^[0-9]+$/.test(unsigned.slice(1))
}

const I128_MAX = (1n << 127n) - 1n
const U128_MAX = (1n << 128n) - 1n

function parseRadixInt(text: string): bigint | undefined {
  let sign = 1n
  let rest = text
  if (rest.startsWith('+')) rest = rest.slice(1)
  else if (rest.startsWith('-')) {
    sign = -1n
    rest = rest.slice(1)
  }
  for (const [prefix, pattern] of [['0x', /^[0-9a-fA-F]+$/], ['0o', /^[0-7]+$/], ['0b', /^[01]+$/]] as const) {
    if (rest.startsWith(prefix) && pattern.test(rest.slice(2))) return sign * BigInt(`${prefix}${rest.slice(2)}`)
  }
  if (!/^[0-9]+$/.test(rest) || digitsButNotNumber(text)) return undefined
  const value = sign * BigInt(rest)
  if (value > U128_MAX || value < -I128_MAX - 1n) return undefined
  return value
}

function parseFiniteFloat(text: string): number | undefined {
  const special: Record<string, number> = { '.inf': Infinity, '.Inf': Infinity, '.INF': Infinity, '-.inf': -Infinity, '-.Inf': -Infinity, '-.INF': -Infinity }
  const unsigned = text.startsWith('+') ? text.slice(1) : text
  if (text.startsWith('+') && (unsigned.startsWith('+') || unsigned.startsWith('-'))) return undefined
  if (special[unsigned] !== undefined) return special[unsigned]
  if (special[text] !== undefined) return special[text]
  if (['.nan', '.NaN', '.NAN'].includes(text)) return NaN
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(unsigned)) return undefined
  const value = Number(unsigned)
  return Number.isFinite(value) ? value : undefined
}

/** serde_yaml's `visit_untagged_scalar` for a plain scalar. */
export function resolvePlainScalar(text: string, at: Position): IntakeValue {
  if (text === '' || ['~', 'null', 'Null', 'NULL'].includes(text)) return { type: 'null', at, source: text }
  if (['true', 'True', 'TRUE'].includes(text)) return { type: 'bool', value: true, at, source: text }
  if (['false', 'False', 'FALSE'].includes(text)) return { type: 'bool', value: false, at, source: text }
  const int = parseRadixInt(text)
  if (int !== undefined) return { type: 'int', value: int, at, source: text }
  if (!digitsButNotNumber(text)) {
    const float = parseFiniteFloat(text)
    if (float !== undefined) return { type: 'float', value: float, at, source: text }
  }
  return { type: 'string', value: text, plain: true, at, source: text }
}

/** How deep a document may nest, and how many alias expansions it may make (serde_yaml stops a repetition bomb too). */
const MAX_DEPTH = 200
const MAX_ALIAS_EXPANSIONS = 100

class Converter {
  readonly problems: ReadProblem[] = []
  private expansions = 0
  private stopped = false

  constructor(
    private readonly document: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly lineOffset = 0,
  ) {}

  position(node: { range?: readonly number[] | null } | null | undefined): Position {
    const offset = node?.range?.[0] ?? 0
    const { line, col } = this.lines.linePos(offset)
    return { line: line + this.lineOffset, column: col }
  }

  /** Stops the conversion with one document-level problem (the rest would only repeat it). */
  private stop(node: unknown, message: string): IntakeValue {
    const at = this.position(node as YamlNode)
    if (!this.stopped) this.problems.push({ code: 'NOT_YAML', at, message })
    this.stopped = true
    return { type: 'null', at, source: '' }
  }

  convert(node: unknown, depth = 0): IntakeValue {
    if (this.stopped) return { type: 'null', at: { line: 1, column: 1 }, source: '' }
    if (depth > MAX_DEPTH) return this.stop(node, `the document nests deeper than ${MAX_DEPTH} levels; no evidence document needs that`)
    if (isAlias(node)) {
      this.expansions += 1
      if (this.expansions > MAX_ALIAS_EXPANSIONS) return this.stop(node, `the document expands aliases more than ${MAX_ALIAS_EXPANSIONS} times, the shape of an alias bomb`)
      return this.convert(node.resolve(this.document), depth + 1)
    }
    const at = this.position(node as YamlNode)
    if (isMap(node)) {
      const entries: IntakeEntry[] = []
      // One lookup per key, so a mapping of 100k keys is read in one pass.
      const seen = new Map<string, IntakeEntry>()
      for (const pair of node.items) {
        const keyNode = pair.key as YamlNode | null
        const key = isScalar(keyNode) ? String(keyNode.value) : isAlias(keyNode) ? String(keyNode.resolve(this.document)?.toJSON()) : JSON.stringify(keyNode?.toJSON())
        const keyAt = this.position(keyNode)
        const first = seen.get(key)
        if (first) {
          this.problems.push({ code: 'DUPLICATE_KEY', at: keyAt, message: `duplicate key \`${key}\` (first at line ${first.keyAt.line}): the engine refuses the document rather than keep one of the two silently` })
          continue
        }
        const entry = { key, keyAt, value: this.convert(pair.value, depth + 1) }
        seen.set(key, entry)
        entries.push(entry)
      }
      return { type: 'map', entries, at }
    }
    if (isSeq(node)) return { type: 'seq', items: node.items.map((item) => this.convert(item, depth + 1)), at }
    if (isScalar(node)) {
      const text = String(node.value ?? '')
      if (node.type === Scalar.PLAIN && !node.tag) return resolvePlainScalar(text, at)
      return { type: 'string', value: text, plain: false, at, source: text }
    }
    // An absent node (`key:` with nothing after it) reads as null.
    return { type: 'null', at, source: '' }
  }
}

/** Reads YAML (or JSON) text into values, refusing a repeated key and a second document. `lineOffset`: the lines before `text` in its file. */
export function readIntakeText(text: string, lineOffset = 0): { value?: IntakeValue; problems: ReadProblem[] } {
  const lines = new LineCounter()
  // Duplicate keys are found while converting, so the refusal names the key and its line.
  const tooDeep = `the document nests deeper than ${MAX_DEPTH} levels; no evidence document needs that`
  let documents: ReturnType<typeof parseAllDocuments>
  try {
    documents = parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, lineCounter: lines, prettyErrors: false })
  } catch (error) {
    // The composer recurses once a level: thousands of levels exhaust the stack before any limit here is checked.
    if (error instanceof RangeError) return { problems: [{ code: 'NOT_YAML', at: { line: 1 + lineOffset, column: 1 }, message: tooDeep }] }
    throw error
  }
  const list = Array.isArray(documents) ? documents : []
  const problems: ReadProblem[] = []
  for (const document of list) {
    for (const error of document.errors) {
      const position = error.linePos?.[0] ?? { line: 1, col: 1 }
      const at = { line: position.line + lineOffset, column: position.col }
      // `yaml` reports its own stack running out as an error of the document; say what it means.
      const exhausted = error.code === 'RESOURCE_EXHAUSTION' || /call stack/i.test(error.message)
      problems.push({ code: 'NOT_YAML', at, message: exhausted ? tooDeep : `not well-formed YAML: ${error.message.split('\n')[0]}` })
    }
  }
  if (list.length > 1) {
    const second = list[1] as Document.Parsed
    const { line, col } = lines.linePos(second.range[0])
    problems.push({ code: 'MULTIPLE_DOCUMENTS', at: { line: line + lineOffset, column: col }, message: 'an evidence file holds one YAML document, a list of records; this one holds several' })
  }
  const first = list[0] as Document.Parsed | undefined
  if (!first || problems.length > 0) return { problems }
  const converter = new Converter(first, lines, lineOffset)
  const value = converter.convert(first.contents)
  if (converter.problems.length > 0) return { problems: converter.problems }
  return { value, problems }
}
