import type { Emission } from '../events/types.js'
import type { ScopeRule } from './types.js'

/**
 * Lexical normalization, as b10x-harness normalizes a `--write-scope` subject: empty and `.`
 * segments dropped, `..` pops (a leading `..` is kept).
 */
export function normalizeScopePath(path: string): string {
  const segments: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..' && segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop()
    else segments.push(segment)
  }
  return segments.join('/')
}

function segmentMatches(glob: string, segment: string): boolean {
  // `*` is any run inside one segment; everything else is literal.
  const parts = glob.split('*')
  if (parts.length === 1) return glob === segment
  const first = parts[0] as string
  const last = parts[parts.length - 1] as string
  if (!segment.startsWith(first) || segment.length < first.length + last.length || !segment.endsWith(last)) return false
  let at = first.length
  const end = segment.length - last.length
  for (const middle of parts.slice(1, -1)) {
    const found = segment.indexOf(middle, at)
    if (found === -1 || found + middle.length > end) return false
    at = found + middle.length
  }
  return true
}

/**
 * A write-scope glob against a normalized relative path: `*` within one segment, `**` across any
 * number of segments (none included, so `**\/x` matches a root `x`), everything else literal;
 * `docs/**` does not match `docs` itself.
 */
export function scopeGlobMatches(glob: string, path: string): boolean {
  const pattern = glob.split('/').filter((segment) => segment !== '')
  const subject = path.split('/').filter((segment) => segment !== '')
  // `docs/**` needs something below `docs`: a trailing `**` matches one or more segments.
  const trailing = pattern[pattern.length - 1] === '**' && pattern.length > 1
  const memo = new Map<string, boolean>()
  const match = (p: number, s: number): boolean => {
    const key = `${p},${s}`
    const known = memo.get(key)
    if (known !== undefined) return known
    let result: boolean
    if (p === pattern.length) result = s === subject.length
    else if (pattern[p] === '**') {
      const least = trailing && p === pattern.length - 1 ? 1 : 0
      result = false
      for (let skip = least; s + skip <= subject.length && !result; skip++) result = match(p + 1, s + skip)
    } else result = s < subject.length && segmentMatches(pattern[p] as string, subject[s] as string) && match(p + 1, s + 1)
    memo.set(key, result)
    return result
  }
  return match(0, 0)
}

/** A file operation a harness performed: `file.write` replaces a whole file, `file.edit` changes part of one. */
export interface FileWrite {
  readonly path: string
  readonly operation: 'file.write' | 'file.edit'
  /** The harness's tool name, for the refusal. */
  readonly tool: string
}

/** Why a write is outside the step's scope, or nothing when it is inside. */
export interface ScopeViolation {
  readonly write: FileWrite
  /** The path relative to the working tree, as the rules saw it. */
  readonly subject: string
  /** The rule that answered, or none when the path is outside the working tree. */
  readonly rule?: ScopeRule
  readonly reason: string
}

function relativeSubject(path: string, root: string): string | undefined {
  const trimmedRoot = root.replace(/\/+$/, '')
  let relative = path
  if (path.startsWith('/')) {
    if (path === trimmedRoot) return ''
    if (!path.startsWith(`${trimmedRoot}/`)) return undefined
    relative = path.slice(trimmedRoot.length + 1)
  }
  const normalized = normalizeScopePath(relative)
  return normalized === '..' || normalized.startsWith('../') ? undefined : normalized
}

/**
 * Decides one write against a step's scope: first match wins; `denied` refuses, `partial-only`
 * refuses a whole-file `file.write`. No rules restrict nothing, and a path no rule mentions is
 * unrestricted (a validated scope always ends in `**`); once rules exist, a path outside the working
 * tree is refused.
 */
export function checkWrite(scope: readonly ScopeRule[], write: FileWrite, root: string): ScopeViolation | undefined {
  if (scope.length === 0) return undefined
  const subject = relativeSubject(write.path, root)
  if (subject === undefined) {
    return { write, subject: write.path, reason: `\`${write.tool}\` wrote \`${write.path}\`, which is outside the working tree ${root}: a declared scope admits nothing there` }
  }
  const rule = scope.find((candidate) => candidate.paths.some((glob) => scopeGlobMatches(glob, subject)))
  if (!rule) return undefined
  const matched = rule.paths.join('`, `')
  if (rule.write === 'denied') {
    return { write, subject, rule, reason: `\`${write.tool}\` wrote \`${subject}\`, and the step's scope answers \`denied\` for it, on the rule \`${matched}\`` }
  }
  if (rule.write === 'partial-only' && write.operation === 'file.write') {
    return { write, subject, rule, reason: `\`${write.tool}\` replaced the whole of \`${subject}\`, and the step's scope answers \`partial-only\` for it, on the rule \`${matched}\`: part of a file may be changed, a whole file never replaced` }
  }
  return undefined
}

/**
 * The files a transcript shows written: every `tool.requested` classified `file.write` or
 * `file.edit`, one per `file:` subject, unless its correlated `tool.result` says it failed. A call
 * whose result never arrived counts: nothing shows it did not write.
 */
export function writesInTranscript(events: readonly Emission[]): FileWrite[] {
  const failed = new Set<string>()
  for (const event of events) {
    if (event.event === 'tool.result' && event.is_error === true && typeof event.call_id === 'string') failed.add(event.call_id)
  }
  const writes: FileWrite[] = []
  for (const event of events) {
    if (event.event !== 'tool.requested') continue
    if (typeof event.call_id === 'string' && failed.has(event.call_id)) continue
    const operations = (event.operations ?? []) as readonly string[]
    const operation = operations.includes('file.write') ? 'file.write' : operations.includes('file.edit') ? 'file.edit' : undefined
    if (!operation) continue
    const subjects = ((event.subjects ?? []) as readonly string[]).filter((subject) => subject.startsWith('file:'))
    for (const subject of subjects) writes.push({ path: subject.slice('file:'.length), operation, tool: typeof event.name === 'string' ? event.name : 'a tool' })
  }
  return writes
}
