import { isJsonObject, type JsonValue } from './json.js'

/** The four wires the provider speaks. */
export const WIRE_NAMES = ['openai-responses', 'openai-chat', 'anthropic-messages', 'gemini'] as const

export type WireName = (typeof WIRE_NAMES)[number]

/** What an error answer means, mapped to each wire's own error `type`. */
export type ErrorKind = 'invalid_request' | 'not_found' | 'too_large' | 'authentication' | 'rate_limit' | 'overloaded' | 'server' | 'cassette_miss'

/** One routed request: the wire, and the endpoint within it. */
export interface Route {
  readonly wire: WireName
  readonly endpoint: 'responses' | 'chat' | 'messages' | 'count_tokens' | 'generate' | 'stream_generate'
  /** Gemini names the model in the path, not the body. */
  readonly model?: string
}

// Gemini: `/v1beta/models/{model}:{method}` (also `/v1` and `/v1alpha`); streaming is a method, not a body field.
const GEMINI_PATH = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/
const GEMINI_ENDPOINTS = { generateContent: 'generate', streamGenerateContent: 'stream_generate', countTokens: 'count_tokens' } as const

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
    default: {
      const gemini = GEMINI_PATH.exec(path)
      if (!gemini) return undefined
      return { wire: 'gemini', endpoint: GEMINI_ENDPOINTS[gemini[2] as keyof typeof GEMINI_ENDPOINTS], model: decodeURIComponent(gemini[1] as string) }
    }
  }
}

/** The wire whose error shape an unrouted path gets: Anthropic's under `/v1/messages`, Google's under `/v1beta` and `/v1/models/…:`, else OpenAI's. */
export function wireForPath(path: string): WireName {
  if (path.startsWith('/v1/messages') || path.startsWith('/v1/complete')) return 'anthropic-messages'
  if (path.startsWith('/v1beta/') || path.startsWith('/v1alpha/') || /^\/v1\/models\/[^/]+:/.test(path)) return 'gemini'
  return 'openai-responses'
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

// google.rpc.Code names, as the Gemini API writes them in `error.status`.
const GOOGLE_STATUSES: Record<ErrorKind, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  not_found: 'NOT_FOUND',
  too_large: 'INVALID_ARGUMENT',
  authentication: 'UNAUTHENTICATED',
  rate_limit: 'RESOURCE_EXHAUSTED',
  overloaded: 'UNAVAILABLE',
  server: 'INTERNAL',
  cassette_miss: 'INVALID_ARGUMENT',
}

const GOOGLE_HTTP: Record<ErrorKind, number> = { invalid_request: 400, not_found: 404, too_large: 413, authentication: 401, rate_limit: 429, overloaded: 503, server: 500, cassette_miss: 400 }

/** An error body exactly as the wire's vendor shapes it (and as its SDK reads `error.message`); Google's carries the HTTP status too. */
export function errorBody(wire: WireName, kind: ErrorKind, message: string, status?: number): string {
  if (wire === 'gemini') return JSON.stringify({ error: { code: status ?? GOOGLE_HTTP[kind], message, status: GOOGLE_STATUSES[kind] } })
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

/** Gemini's tools: `[{functionDeclarations: [{name}]}, {googleSearch: {}}…]`, one name per declaration or built-in. */
function geminiToolNames(tools: JsonValue[]): string[] {
  return tools.flatMap((tool) => {
    if (!isJsonObject(tool)) return []
    const declarations = tool['functionDeclarations']
    if (Array.isArray(declarations)) return declarations.map(toolName).filter((name): name is string => name !== undefined)
    return Object.keys(tool)
  })
}

export function summarizeRequest(body: JsonValue | undefined, route?: Route): RequestSummary {
  if (route?.wire === 'gemini') {
    const tools = isJsonObject(body) && Array.isArray(body['tools']) ? geminiToolNames(body['tools']) : []
    return { model: route.model ?? null, stream: route.endpoint === 'stream_generate', tools }
  }
  if (!isJsonObject(body)) return { model: null, stream: false, tools: [] }
  const tools = Array.isArray(body['tools']) ? body['tools'].map(toolName).filter((name): name is string => name !== undefined) : []
  return { model: typeof body['model'] === 'string' ? body['model'] : null, stream: body['stream'] === true, tools }
}
