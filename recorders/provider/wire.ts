import { isJsonObject, type JsonValue } from './json.js'

/** The three wires the provider speaks. */
export const WIRE_NAMES = ['openai-responses', 'openai-chat', 'anthropic-messages'] as const

export type WireName = (typeof WIRE_NAMES)[number]

/** What an error answer means, mapped to each wire's own error `type`. */
export type ErrorKind = 'invalid_request' | 'not_found' | 'too_large' | 'authentication' | 'rate_limit' | 'overloaded' | 'server' | 'cassette_miss'

/** One routed request: the wire, and the endpoint within it. */
export interface Route {
  readonly wire: WireName
  readonly endpoint: 'responses' | 'chat' | 'messages' | 'count_tokens'
}

/** The paths the provider serves (after any `/__scope/<id>` prefix is removed). */
export function routeOf(method: string, path: string): Route | undefined {
  if (method !== 'POST') return undefined
  switch (path) {
    case '/v1/responses':
      return { wire: 'openai-responses', endpoint: 'responses' }
    case '/v1/chat/completions':
      return { wire: 'openai-chat', endpoint: 'chat' }
    case '/v1/messages':
      return { wire: 'anthropic-messages', endpoint: 'messages' }
    case '/v1/messages/count_tokens':
      return { wire: 'anthropic-messages', endpoint: 'count_tokens' }
    default:
      return undefined
  }
}

/** The wire whose error shape an unrouted path gets: Anthropic's under `/v1/messages`, else OpenAI's. */
export function wireForPath(path: string): WireName {
  return path.startsWith('/v1/messages') || path.startsWith('/v1/complete') ? 'anthropic-messages' : 'openai-responses'
}

const OPENAI_TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  not_found: 'invalid_request_error',
  too_large: 'invalid_request_error',
  authentication: 'invalid_request_error',
  rate_limit: 'rate_limit_exceeded',
  overloaded: 'server_error',
  server: 'server_error',
  cassette_miss: 'invalid_request_error',
}

const OPENAI_CODES: Record<ErrorKind, string | null> = {
  invalid_request: null,
  not_found: 'not_found',
  too_large: 'request_too_large',
  authentication: 'invalid_api_key',
  rate_limit: 'rate_limit_exceeded',
  overloaded: 'server_is_overloaded',
  server: 'server_error',
  cassette_miss: 'cassette_miss',
}

const ANTHROPIC_TYPES: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  not_found: 'not_found_error',
  too_large: 'request_too_large',
  authentication: 'authentication_error',
  rate_limit: 'rate_limit_error',
  overloaded: 'overloaded_error',
  server: 'api_error',
  cassette_miss: 'invalid_request_error',
}

/** An error body exactly as the wire's vendor shapes it (and as its SDK reads `error.message`). */
export function errorBody(wire: WireName, kind: ErrorKind, message: string): string {
  if (wire === 'anthropic-messages') {
    return JSON.stringify({ type: 'error', error: { type: ANTHROPIC_TYPES[kind], message } })
  }
  return JSON.stringify({ error: { message, type: OPENAI_TYPES[kind], param: null, code: OPENAI_CODES[kind] } })
}

/** What the request log and a miss report say about a request body. */
export interface RequestSummary {
  readonly model: string | null
  readonly stream: boolean
  readonly tools: string[]
}

function toolName(tool: JsonValue): string | undefined {
  if (!isJsonObject(tool)) return undefined
  if (typeof tool['name'] === 'string') return tool['name']
  const fn = tool['function']
  if (isJsonObject(fn) && typeof fn['name'] === 'string') return fn['name']
  return typeof tool['type'] === 'string' ? tool['type'] : undefined
}

export function summarizeRequest(body: JsonValue | undefined): RequestSummary {
  if (!isJsonObject(body)) return { model: null, stream: false, tools: [] }
  const tools = Array.isArray(body['tools']) ? body['tools'].map(toolName).filter((name): name is string => name !== undefined) : []
  return { model: typeof body['model'] === 'string' ? body['model'] : null, stream: body['stream'] === true, tools }
}
