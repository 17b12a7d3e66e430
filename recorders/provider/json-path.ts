import { RecorderError } from '../errors.js'
import { isJsonObject, type JsonValue } from './json.js'

// A small JSON-path subset for matching rules: `$`, `.key`, `['key']`, `[3]`, `[*]`, `.*` and
// recursive `..key` / `..*`.
type Segment = { kind: 'key'; name: string } | { kind: 'index'; index: number } | { kind: 'any' } | { kind: 'deep'; name: string | undefined }

export type JsonPath = readonly Segment[]

export function parseJsonPath(path: string): JsonPath {
  const fail = (why: string) => new RecorderError('VH_OPTION_INVALID', `the JSON path ${JSON.stringify(path)} is not valid: ${why}. Use $.key, $..key, $.list[0], $.list[*] or $['odd key'].`, { location: path })
  if (!path.startsWith('$')) throw fail('it must start with $')
  const segments: Segment[] = []
  let at = 1
  while (at < path.length) {
    if (path.startsWith('..', at)) {
      const match = /^\.\.(\*|[A-Za-z_$][\w$-]*)/.exec(path.slice(at))
      if (!match) throw fail(`expected a key after .. at ${at}`)
      segments.push({ kind: 'deep', name: match[1] === '*' ? undefined : match[1] })
      at += match[0].length
    } else if (path[at] === '.') {
      const match = /^\.(\*|[A-Za-z_$][\w$-]*)/.exec(path.slice(at))
      if (!match) throw fail(`expected a key after . at ${at}`)
      segments.push(match[1] === '*' ? { kind: 'any' } : { kind: 'key', name: match[1] as string })
      at += match[0].length
    } else if (path[at] === '[') {
      const match = /^\[(?:(\d+)|\*|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(path.slice(at))
      if (!match) throw fail(`expected [n], [*] or ['key'] at ${at}`)
      if (match[1] !== undefined) segments.push({ kind: 'index', index: Number(match[1]) })
      else if (match[2] !== undefined || match[3] !== undefined) segments.push({ kind: 'key', name: (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1') })
      else segments.push({ kind: 'any' })
      at += match[0].length
    } else throw fail(`unexpected ${JSON.stringify(path[at])} at ${at}`)
  }
  return segments
}

type Visit = (container: JsonValue[] | { [key: string]: JsonValue }, key: string | number) => void

function children(value: JsonValue): [string | number, JsonValue][] {
  if (Array.isArray(value)) return value.map((item, index) => [index, item])
  if (isJsonObject(value)) return Object.entries(value)
  return []
}

function walk(value: JsonValue, segments: JsonPath, visit: Visit): void {
  const [head, ...rest] = segments
  if (!head) return
  const step = (container: JsonValue[] | { [key: string]: JsonValue }, key: string | number) => {
    if (rest.length === 0) visit(container, key)
    else walk((container as Record<string | number, JsonValue>)[key] as JsonValue, rest, visit)
  }
  if (head.kind === 'key') {
    if (isJsonObject(value) && Object.hasOwn(value, head.name)) step(value, head.name)
  } else if (head.kind === 'index') {
    if (Array.isArray(value) && head.index < value.length) step(value, head.index)
  } else if (head.kind === 'any') {
    if (Array.isArray(value) || isJsonObject(value)) for (const [key] of children(value)) step(value as JsonValue[], key as number)
  } else {
    // `..name`: this level and every level below.
    if (Array.isArray(value) || isJsonObject(value)) {
      for (const [key, child] of children(value)) {
        if (head.name === undefined || key === head.name) step(value as JsonValue[], key as number)
        walk(child, segments, visit)
      }
    }
  }
}

/** Removes every location the path selects, in place. */
export function deleteAtPath(root: JsonValue, path: JsonPath): void {
  const targets: [JsonValue[] | { [key: string]: JsonValue }, string | number][] = []
  walk(root, path, (container, key) => targets.push([container, key]))
  // Array items go from the end, so earlier indices stay valid.
  for (const [container, key] of targets.reverse()) {
    if (Array.isArray(container)) container.splice(key as number, 1)
    else delete container[key as string]
  }
}

/** Rewrites every location the path selects, in place. */
export function mapAtPath(root: JsonValue, path: JsonPath, map: (value: JsonValue) => JsonValue): void {
  walk(root, path, (container, key) => {
    const record = container as Record<string | number, JsonValue>
    record[key] = map(record[key] as JsonValue)
  })
}

/** `$.a[2].b` for a location, quoting keys that are not identifiers. */
export function formatPath(parts: readonly (string | number)[]): string {
  return `$${parts.map((part) => (typeof part === 'number' ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`)).join('')}`
}
