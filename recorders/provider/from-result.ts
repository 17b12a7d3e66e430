import { RE2JS } from 're2js'
import { isJsonObject, type JsonValue } from './json.js'
import type { Route } from './wire.js'

/**
 * A scripted argument the harness hands out at run time — Codex's `exec_command` answers `Process
 * running with session ID 74472`, a number `write_stdin` must name and no script can know ahead.
 * `{"$from_result": "<regex>", "as": "number"}` in a tool call's arguments takes it from the last
 * tool result the request carries: the regex's first group (or its whole match), as a string or a
 * number. The regex runs on RE2 (linear, never backtracking), like a trace spec's.
 */
export const FROM_RESULT = '$from_result'

export interface FromResult {
  readonly pattern: RE2JS
  readonly source: string
  readonly as: 'string' | 'number'
}

/** Why an argument could not be taken, for the answer the harness gets in the turn's place. */
export class FromResultMiss extends Error {}

/** Whether a scripted value is a `$from_result` reference: an object with that key and at most `as` beside it. */
export function isFromResult(value: unknown): value is { readonly [FROM_RESULT]: string; readonly as?: 'string' | 'number' } {
  if (!isJsonObject(value as JsonValue) || typeof (value as Record<string, unknown>)[FROM_RESULT] !== 'string') return false
  return Object.keys(value as object).every((key) => key === FROM_RESULT || key === 'as')
}

/** A tool result's text: a string, or its text parts joined; anything else as its JSON. */
function resultText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : typeof part === 'string' ? part : '')).join('\n')
  return content === undefined ? '' : JSON.stringify(content)
}

/** The text of the last tool result a request's conversation holds, on any wire; undefined when it holds none. */
export function lastToolResult(route: Route, body: JsonValue | undefined): string | undefined {
  if (!isJsonObject(body)) return undefined
  let last: string | undefined
  if (route.wire === 'openai-responses') {
    for (const item of Array.isArray(body['input']) ? body['input'] : []) {
      if (isJsonObject(item) && (item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output')) last = resultText(item['output'])
    }
  } else if (route.wire === 'openai-chat') {
    for (const message of Array.isArray(body['messages']) ? body['messages'] : []) {
      if (isJsonObject(message) && message['role'] === 'tool') last = resultText(message['content'])
    }
  } else if (route.wire === 'anthropic-messages') {
    for (const message of Array.isArray(body['messages']) ? body['messages'] : []) {
      if (!isJsonObject(message) || !Array.isArray(message['content'])) continue
      for (const block of message['content']) if (isJsonObject(block) && block['type'] === 'tool_result') last = resultText(block['content'])
    }
  } else {
    for (const content of Array.isArray(body['contents']) ? body['contents'] : []) {
      if (!isJsonObject(content) || !Array.isArray(content['parts'])) continue
      for (const part of content['parts']) {
        const response = isJsonObject(part) && isJsonObject(part['functionResponse']) ? part['functionResponse']['response'] : undefined
        if (response !== undefined) last = isJsonObject(response) && typeof response['output'] === 'string' ? response['output'] : resultText(response)
      }
    }
  }
  return last
}

/** Compiles a reference's regex; throws with RE2's own message for one it cannot run. */
export function compileFromResult(source: string, as: 'string' | 'number' = 'string'): FromResult {
  return { pattern: RE2JS.compile(source), source, as }
}

/** The value a reference takes from a result's text; throws `FromResultMiss` when the regex finds nothing or no number. */
export function takeFromResult(reference: FromResult, text: string | undefined): string | number {
  if (text === undefined) throw new FromResultMiss(`/${reference.source}/ has no tool result to read: the request carries none`)
  const matcher = reference.pattern.matcher(text)
  if (!matcher.find()) throw new FromResultMiss(`/${reference.source}/ matched nothing in the last tool result: ${JSON.stringify(text.slice(0, 200))}`)
  const taken = matcher.groupCount() >= 1 ? matcher.group(1) : matcher.group(0)
  const value = taken ?? ''
  if (reference.as === 'string') return value
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number)) throw new FromResultMiss(`/${reference.source}/ took ${JSON.stringify(value)} from the last tool result, which is no number`)
  return number
}

/** Arguments with every `$from_result` reference replaced by what it takes from the request's last tool result. */
export function resolveArguments(value: JsonValue, text: string | undefined): JsonValue {
  if (isFromResult(value)) return takeFromResult(compileFromResult(value[FROM_RESULT], value.as ?? 'string'), text)
  if (Array.isArray(value)) return value.map((item) => resolveArguments(item, text))
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveArguments(item, text)]))
  return value
}

/** Whether any value in a call's arguments is a reference (so only those turns read the request's results). */
export function holdsFromResult(value: JsonValue): boolean {
  if (isFromResult(value)) return true
  if (Array.isArray(value)) return value.some(holdsFromResult)
  if (isJsonObject(value)) return Object.values(value).some(holdsFromResult)
  return false
}

/** The first malformed reference in scripted arguments, as `{ path, message }`, or undefined when all can run. */
export function checkReferences(value: JsonValue, path: string): { path: string; message: string } | undefined {
  if (isJsonObject(value) && FROM_RESULT in value) {
    const source = value[FROM_RESULT]
    if (typeof source !== 'string') return { path: `${path}.${FROM_RESULT}`, message: 'a $from_result reference holds a regex string' }
    const extra = Object.keys(value).find((key) => key !== FROM_RESULT && key !== 'as')
    if (extra !== undefined) return { path: `${path}.${extra}`, message: `only "as" may stand beside $from_result, not ${JSON.stringify(extra)}` }
    if (value['as'] !== undefined && value['as'] !== 'string' && value['as'] !== 'number') return { path: `${path}.as`, message: '"as" is "string" or "number"' }
    try {
      compileFromResult(source)
    } catch (error) {
      return { path: `${path}.${FROM_RESULT}`, message: `not a regex RE2 can run: ${error instanceof Error ? error.message : String(error)}` }
    }
    return undefined
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = checkReferences(value[i] as JsonValue, `${path}[${i}]`)
      if (problem) return problem
    }
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const problem = checkReferences(item, `${path}.${key}`)
      if (problem) return problem
    }
  }
  return undefined
}
