import type { CassetteRequest, Interaction } from './cassette.js'
import { deleteAtPath, formatPath, mapAtPath, parseJsonPath, type JsonPath } from './json-path.js'
import { canonicalJson, isJsonObject, setOwn, sha256Hex, type JsonValue } from './json.js'

/** A text rewrite applied to strings before two requests are compared. */
export interface TextRule {
  /** Where to apply it (a JSON path); every string in the body when absent. */
  readonly path?: string
  readonly pattern: RegExp | string
  readonly with: string
}

/** User rules on top of the built-in ones: JSON paths to ignore, text to normalise. */
export interface MatchRules {
  readonly ignore?: readonly string[]
  readonly replace?: readonly TextRule[]
}

/**
 * What real harnesses vary from run to run and a recording must not depend on: cache keys,
 * session and installation ids, metadata, OpenAI's random `obfuscation`, timestamps.
 */
export const BUILT_IN_IGNORED_PATHS: readonly string[] = [
  '$.metadata',
  '$.prompt_cache_key',
  '$.user',
  '$.client_metadata',
  '$.session_id',
  '$.installation_id',
  '$.request_id',
  '$..obfuscation',
  '$..created',
  '$..created_at',
  '$..timestamp',
]

/**
 * Volatile text inside strings: ids, clocks, and the per-run lines tool results and prompts carry
 * (Codex's `Chunk ID`, `Wall time`; Gemini CLI's and Qwen Code's `Process Group PGID` and dated
 * session context; Qwen Code's dated reminder in every user turn).
 */
export const BUILT_IN_TEXT_RULES: readonly TextRule[] = [
  { pattern: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, with: '<uuid>' },
  { pattern: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, with: '<timestamp>' },
  { pattern: /Chunk ID: \S+/g, with: 'Chunk ID: <id>' },
  { pattern: /Wall time: [\d.]+ ?\w*/g, with: 'Wall time: <elapsed>' },
  // The time goes; the exit code stays: a command that failed where the recording's succeeded is another request.
  { pattern: /(Process exited with code -?\d+) after [\d.]+ ?\w*/g, with: '$1 after <elapsed>' },
  { pattern: /Process Group PGID: \d+/g, with: 'Process Group PGID: <pgid>' },
  { pattern: /Today's date is [^\n(]+/g, with: "Today's date is <date> " },
  // Qwen Code 0.24 repeats the day in a reminder on each user turn: `The current date is: Thursday, December 3, 2026. Note: …`.
  { pattern: /The current date is: [^\n.]+/g, with: 'The current date is: <date>' },
]

interface CompiledTextRule {
  readonly path: JsonPath | undefined
  readonly pattern: RegExp
  readonly with: string
}

/** The rules, compiled once: paths parsed, patterns made global. */
export class RequestCanonicalizer {
  private readonly ignored: JsonPath[]
  private readonly textRules: CompiledTextRule[]

  constructor(rules: MatchRules = {}) {
    this.ignored = [...BUILT_IN_IGNORED_PATHS, ...(rules.ignore ?? [])].map(parseJsonPath)
    this.textRules = [...BUILT_IN_TEXT_RULES, ...(rules.replace ?? [])].map((rule) => ({
      path: rule.path === undefined ? undefined : parseJsonPath(rule.path),
      pattern: typeof rule.pattern === 'string' ? new RegExp(rule.pattern, 'g') : rule.pattern.global ? rule.pattern : new RegExp(rule.pattern.source, `${rule.pattern.flags}g`),
      with: rule.with,
    }))
  }

  /** The body with volatile fields removed and volatile text rewritten. */
  canonicalBody(body: JsonValue | undefined, bodyText?: string): JsonValue {
    if (body === undefined) return bodyText === undefined ? null : this.rewriteAll(bodyText)
    const copy = structuredClone(body)
    if (!isJsonObject(copy)) return this.rewriteEverywhere(copy)
    for (const path of this.ignored) deleteAtPath(copy, path)
    let out: JsonValue = copy
    for (const rule of this.textRules) {
      if (rule.path === undefined) out = rewriteStrings(out, rule)
      else mapAtPath(out, rule.path, (value) => rewriteStrings(value, rule))
    }
    return out
  }

  private rewriteAll(text: string): string {
    let out = text
    for (const rule of this.textRules) out = out.replace(rule.pattern, rule.with)
    return out
  }

  private rewriteEverywhere(value: JsonValue): JsonValue {
    let out = value
    for (const rule of this.textRules) out = rewriteStrings(out, rule)
    return out
  }

  /** The identity two requests share exactly when they are the same request. */
  identity(request: Pick<CassetteRequest, 'method' | 'path' | 'body' | 'bodyText'>): string {
    return this.canonicalize(request).identity
  }

  /** The canonical body and the identity, computed once: a miss explains itself from the same canonical body. */
  canonicalize(request: Pick<CassetteRequest, 'method' | 'path' | 'body' | 'bodyText'>): { readonly body: JsonValue; readonly identity: string } {
    const body = this.canonicalBody(request.body, request.bodyText)
    return { body, identity: sha256Hex(`${request.method} ${request.path}\n${canonicalJson(body)}`) }
  }
}

function rewriteStrings(value: JsonValue, rule: CompiledTextRule): JsonValue {
  if (typeof value === 'string') {
    rule.pattern.lastIndex = 0
    return value.replace(rule.pattern, rule.with)
  }
  if (Array.isArray(value)) return value.map((item) => rewriteStrings(item, rule))
  if (isJsonObject(value)) {
    const out: { [key: string]: JsonValue } = {}
    for (const [key, item] of Object.entries(value)) setOwn(out, key, rewriteStrings(item, rule))
    return out
  }
  return value
}

/** Where two canonical bodies first differ, depth first with keys in sorted order, and how many leaves differ. */
export function compareBodies(recorded: JsonValue, received: JsonValue): { path: string | undefined; recorded?: JsonValue; received?: JsonValue; distance: number } {
  let first: { path: string; recorded?: JsonValue; received?: JsonValue } | undefined
  let distance = 0
  // Iterative, depth first in sorted-key order (a request nested thousands deep must not exhaust the
  // stack), reading only own keys: a key named `constructor` is a key, not the prototype's function.
  type Step = { a: JsonValue | undefined; b: JsonValue | undefined; part: string | number | undefined; parent: Step | undefined }
  const pathOf = (step: Step): (string | number)[] => {
    const parts: (string | number)[] = []
    for (let at: Step | undefined = step; at?.part !== undefined; at = at.parent) parts.push(at.part)
    return parts.reverse()
  }
  const own = (value: { readonly [key: string]: JsonValue }, key: string): JsonValue | undefined => (Object.hasOwn(value, key) ? value[key] : undefined)
  const stack: Step[] = [{ a: recorded, b: received, part: undefined, parent: undefined }]
  while (stack.length > 0 && distance <= 10_000) {
    const step = stack.pop() as Step
    const { a, b } = step
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let index = Math.max(a.length, b.length) - 1; index >= 0; index--) stack.push({ a: a[index], b: b[index], part: index, parent: step })
      continue
    }
    if (isJsonObject(a) && isJsonObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string
        stack.push({ a: own(a, key), b: own(b, key), part: key, parent: step })
      }
      continue
    }
    // Two scalars compare directly; only mixed shapes need their canonical text.
    const differ = a === undefined || b === undefined || (a !== null && typeof a === 'object') || (b !== null && typeof b === 'object') ? a === undefined || b === undefined || canonicalJson(a) !== canonicalJson(b) : a !== b
    if (differ) {
      distance += 1
      first ??= { path: formatPath(pathOf(step)), ...(a !== undefined ? { recorded: a } : {}), ...(b !== undefined ? { received: b } : {}) }
    }
  }
  return { path: first?.path, ...(first && 'recorded' in first ? { recorded: first.recorded } : {}), ...(first && 'received' in first ? { received: first.received } : {}), distance }
}

/** A request nothing recorded answers, with the nearest recorded one and where they part. */
export interface Miss {
  readonly method: string
  readonly path: string
  readonly model: string | null
  /** 1-based interaction number of the nearest recorded request, when there is one. */
  readonly nearest?: number
  /** The first JSON path where the nearest recorded request and this one differ. */
  readonly differsAt?: string
  readonly recordedValue?: JsonValue
  readonly receivedValue?: JsonValue
  /** The whole sentence a failing test shows. */
  readonly message: string
}

/** A copy of a short string that shares no storage with the (possibly huge) string it was cut from. */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le')
}

function excerpt(value: JsonValue | undefined): string {
  if (value === undefined) return '(absent)'
  // A long string is cut before it is quoted: quoting 2 MiB to show 117 characters costs a copy.
  const text = typeof value === 'string' && value.length > 240 ? JSON.stringify(value.slice(0, 240)) : JSON.stringify(value)
  // A kept miss must not pin the request it quotes: a slice would keep the whole text alive.
  return text.length > 120 ? detached(`${text.slice(0, 117)}…`) : detached(text)
}

/** What to do when identical requests outnumber their recordings. */
export type Exhausted = 'repeat-last' | 'miss'

/**
 * Recorded interactions by identity. Identical requests get their recordings in recorded order;
 * past the last one, `repeat-last` answers it again and `miss` refuses.
 */
export class InteractionIndex {
  private readonly byIdentity = new Map<string, number[]>()
  private readonly cursors = new Map<string, number>()
  private readonly canonical: { method: string; path: string; body: JsonValue }[] = []

  constructor(
    private readonly interactions: Interaction[],
    private readonly canonicalizer: RequestCanonicalizer,
    private readonly exhausted: Exhausted = 'repeat-last',
  ) {
    interactions.forEach((interaction, index) => this.indexOne(interaction, index))
  }

  private indexOne(interaction: Interaction, index: number): void {
    const key = this.canonicalizer.identity(interaction.request)
    const list = this.byIdentity.get(key) ?? []
    list.push(index)
    this.byIdentity.set(key, list)
    this.canonical[index] = { method: interaction.request.method, path: interaction.request.path, body: this.canonicalizer.canonicalBody(interaction.request.body, interaction.request.bodyText) }
  }

  get size(): number {
    return this.interactions.length
  }

  all(): readonly Interaction[] {
    return this.interactions
  }

  add(interaction: Interaction): void {
    this.interactions.push(interaction)
    this.indexOne(interaction, this.interactions.length - 1)
  }

  /** The recording that answers this request, or the miss that explains why none does. */
  take(request: Pick<CassetteRequest, 'method' | 'path' | 'body' | 'bodyText'>, model: string | null, canonical?: { readonly body: JsonValue; readonly identity: string }): { interaction: Interaction; index: number } | { miss: Miss } {
    const key = canonical?.identity ?? this.canonicalizer.identity(request)
    const list = this.byIdentity.get(key)
    if (list && list.length > 0) {
      const cursor = this.cursors.get(key) ?? 0
      if (cursor < list.length || this.exhausted === 'repeat-last') {
        this.cursors.set(key, cursor + 1)
        const index = list[Math.min(cursor, list.length - 1)] as number
        return { interaction: this.interactions[index] as Interaction, index }
      }
      return { miss: { method: request.method, path: request.path, model, message: `${request.method} ${request.path} was recorded ${list.length} time(s) and this is request ${cursor + 1} of that identity; record the cassette again, or allow repeats (exhausted: 'repeat-last').` } }
    }
    return { miss: this.explainMiss(request, model, canonical?.body) }
  }

  private explainMiss(request: Pick<CassetteRequest, 'method' | 'path' | 'body' | 'bodyText'>, model: string | null, canonicalBody?: JsonValue): Miss {
    const received = canonicalBody ?? this.canonicalizer.canonicalBody(request.body, request.bodyText)
    let best: { index: number; path: string | undefined; recorded?: JsonValue; received?: JsonValue; distance: number } | undefined
    this.canonical.forEach((candidate, index) => {
      if (candidate.method !== request.method || candidate.path !== request.path) return
      const comparison = compareBodies(candidate.body, received)
      if (!best || comparison.distance < best.distance) best = { index, ...comparison }
    })
    const head = `no recorded request matches ${request.method} ${request.path}${model ? ` (model ${model})` : ''}`
    if (!best) {
      const paths = [...new Set(this.canonical.map((candidate) => `${candidate.method} ${candidate.path}`))]
      return { method: request.method, path: request.path, model, message: `${head}; the cassette holds ${this.canonical.length} interaction(s)${paths.length > 0 ? `, none on this path (it has ${paths.join(', ')})` : ''}. Record it (VITEST_HARNESS_MODE=record) or fix the request.` }
    }
    const found = best
    const where = found.path === undefined ? 'nowhere after normalisation (a repeat past the recorded count?)' : `${found.path}: recorded ${excerpt(found.recorded)}, received ${excerpt(found.received)}`
    return {
      method: request.method,
      path: request.path,
      model,
      nearest: found.index + 1,
      ...(found.path !== undefined ? { differsAt: found.path } : {}),
      ...(found.recorded !== undefined ? { recordedValue: found.recorded } : {}),
      ...(found.received !== undefined ? { receivedValue: found.received } : {}),
      message: `${head}; the nearest recorded request is interaction ${found.index + 1}, which differs at ${where}. Record the cassette again (VITEST_HARNESS_MODE=record), or declare the field volatile (match.ignore: ['${found.path ?? '$.field'}']).`,
    }
  }
}
