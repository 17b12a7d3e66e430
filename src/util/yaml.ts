import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml'

/**
 * Every YAML document the project reads from a user goes through here, so none of them can be
 * made to cost more than its size: duplicate keys are found with one set per mapping (the `yaml`
 * package's own check compares each key with every earlier one, quadratic in a mapping's size),
 * aliases expand under `yaml`'s own count limit, and nesting deeper than any real document is
 * refused before anything recursive walks it.
 */

export type YamlProblemCode = 'YAML_SYNTAX' | 'DUPLICATE_KEY' | 'ALIAS_LIMIT' | 'UNRESOLVED_ALIAS' | 'NESTING_TOO_DEEP'

export interface YamlProblem {
  code: YamlProblemCode
  /** One-based line and column of the offending node. */
  line: number
  col: number
  message: string
}

/** One-based line and column of a node of the document read. */
export interface YamlPosition {
  line: number
  col: number
}

/**
 * Where a path of the read value was written: the value at `path`, or with `key: true` the key
 * that names its last step (what a "did you mean" for an unknown name points at). `undefined` when
 * the path is not in the document.
 */
export type YamlPositionOf = (path: readonly PropertyKey[], options?: { key?: boolean }) => YamlPosition | undefined

export type YamlReadResult = { ok: true; value: unknown; positionOf: YamlPositionOf } | { ok: false; problems: YamlProblem[] }

export interface YamlReadOptions {
  /** Refuse a key written twice in one mapping. Default: true. */
  uniqueKeys?: boolean
  /** How many alias expansions the document may make, as `yaml`'s `maxAliasCount`. Default: 100. */
  maxAliasCount?: number
  /** The deepest nesting accepted. Default: 256. */
  maxDepth?: number
}

const DEFAULTS = { uniqueKeys: true, maxAliasCount: 100, maxDepth: 256 }

function keyText(key: unknown): string {
  if (isScalar(key)) return `s:${String(key.value)}`
  if (isAlias(key)) return `a:${key.source}`
  // A complex key (a mapping or list as a key) is compared by its source text.
  return `c:${String(key)}`
}

/** Duplicate keys and excessive depth, in one iterative pass over the node tree. */
function structuralProblems(root: YamlNode | null, options: typeof DEFAULTS, at: (offset: number) => { line: number; col: number }): YamlProblem[] {
  const problems: YamlProblem[] = []
  if (root === null) return problems
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }]
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number }
    if (!isMap(node) && !isSeq(node)) continue
    if (depth > options.maxDepth) {
      const offset = node.range?.[0] ?? 0
      problems.push({ code: 'NESTING_TOO_DEEP', ...at(offset), message: `the document nests deeper than ${options.maxDepth} levels; no document this reads needs that` })
      return problems
    }
    if (isMap(node)) {
      const seen = options.uniqueKeys ? new Set<string>() : undefined
      for (const item of node.items) {
        if (!isPair(item)) continue
        if (seen) {
          const text = keyText(item.key)
          if (seen.has(text)) {
            const offset = (isScalar(item.key) || isMap(item.key) || isSeq(item.key) ? item.key.range?.[0] : undefined) ?? node.range?.[0] ?? 0
            problems.push({ code: 'DUPLICATE_KEY', ...at(offset), message: `the key ${isScalar(item.key) ? JSON.stringify(String(item.key.value)) : String(item.key)} is written twice in one mapping` })
          } else seen.add(text)
        }
        stack.push({ node: item.value, depth: depth + 1 })
        if (isMap(item.key) || isSeq(item.key)) stack.push({ node: item.key, depth: depth + 1 })
      }
    } else {
      for (const item of node.items) stack.push({ node: item, depth: depth + 1 })
    }
  }
  return problems
}

function positionsIn(root: unknown, at: (offset: number) => YamlPosition): YamlPositionOf {
  return (path, options = {}) => {
    let node: unknown = root
    let keyNode: unknown
    for (const part of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(part))
        if (!pair) return undefined
        keyNode = pair.key
        node = pair.value
      } else if (isSeq(node) && typeof part === 'number') {
        keyNode = undefined
        node = node.items[part]
      } else return undefined
    }
    const target = options.key && keyNode !== undefined ? keyNode : node
    const offset = (target as { range?: [number, number, number] } | null)?.range?.[0]
    return offset === undefined ? undefined : at(offset)
  }
}

/** Reads one YAML (or JSON) document into plain values, or every problem that stopped it. */
export function readYaml(text: string, options: YamlReadOptions = {}): YamlReadResult {
  const settings = { ...DEFAULTS, ...options }
  const lineCounter = new LineCounter()
  let document: ReturnType<typeof parseDocument>
  try {
    document = parseDocument(text, { uniqueKeys: false, prettyErrors: false, lineCounter })
  } catch (error) {
    // The composer recurses once a level: a document nested thousands deep exhausts the stack.
    if (error instanceof RangeError) return { ok: false, problems: [{ code: 'NESTING_TOO_DEEP', line: 1, col: 1, message: `the document nests deeper than ${settings.maxDepth} levels; no document this reads needs that` }] }
    throw error
  }
  const at = (offset: number) => {
    const position = lineCounter.linePos(offset)
    return { line: position.line, col: position.col }
  }
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.map((error) =>
        // `yaml` reports its own stack running out on deep nesting as resource exhaustion.
        error.code === 'RESOURCE_EXHAUSTION'
          ? { code: 'NESTING_TOO_DEEP', ...at(error.pos[0]), message: `the document nests deeper than ${settings.maxDepth} levels; no document this reads needs that` }
          : { code: 'YAML_SYNTAX', ...at(error.pos[0]), message: `${error.message.split('\n')[0] ?? error.message} (${error.code})` },
      ),
    }
  }
  const problems = structuralProblems(document.contents as YamlNode | null, settings, at)
  if (problems.length > 0) return { ok: false, problems }
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: settings.maxAliasCount }) as unknown, positionOf: positionsIn(document.contents, at) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const code: YamlProblemCode = /alias count/i.test(message) ? 'ALIAS_LIMIT' : /unresolved alias|alias/i.test(message) ? 'UNRESOLVED_ALIAS' : 'YAML_SYNTAX'
    const sentence = code === 'ALIAS_LIMIT' ? `the document expands more than ${settings.maxAliasCount} aliases, the shape of an alias bomb` : message
    return { ok: false, problems: [{ code, line: 1, col: 1, message: sentence }] }
  }
}

/** A problem as `file:line:col: message (CODE)`. */
export function renderYamlProblem(problem: YamlProblem, source: string): string {
  return `${source}:${problem.line}:${problem.col}: ${problem.message} (${problem.code})`
}
