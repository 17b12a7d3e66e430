import { z } from 'zod'
import { readYaml } from '../../src/util/yaml.js'
import { RecorderError } from '../errors.js'
import type { CassetteFrame, CassetteResponse } from './cassette.js'
import { frameBytes } from './cassette.js'
import { isJsonObject, type JsonValue } from './json.js'
import { checkReferences, FromResultMiss, holdsFromResult, lastToolResult, resolveArguments } from './from-result.js'
import { errorBody, type ErrorKind, type Route } from './wire.js'
import { countTokensAnswer, messagesErrorFrame, messagesTurn } from './wires/anthropic-messages.js'
import { geminiCountTokensAnswer, geminiErrorFrame, geminiTurn } from './wires/gemini.js'
import { chatErrorFrame, chatTurn } from './wires/openai-chat.js'
import { responsesErrorFrame, responsesTurn } from './wires/openai-responses.js'
import { pad, type ScriptedTurn, type TurnContext } from './wires/types.js'
import { INPUT_LIMITS } from '../../src/util/read-input.js'
import { readRecorderInput } from './read-input.js'

/** A failure a scripted turn answers with instead of (or in the middle of) its content. */
export type Fault =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: number; readonly message?: string; readonly once: boolean; readonly shouldRetry: boolean }
  | { readonly kind: 'cut'; readonly once: boolean }
  | { readonly kind: 'malformed'; readonly once: boolean }
  | { readonly kind: 'error-event'; readonly message: string; readonly once: boolean }

export interface ScenarioTurn extends ScriptedTurn {
  readonly fault?: Fault
  /** Milliseconds between frames: a slow stream. */
  readonly paceMs?: number
}

/**
 * A conversation of its own the harness holds beside the main one — a subagent's — told by how it
 * opens: a request whose opening user text (`openingUserText`) contains `firstUserTextContains` is
 * answered from these turns, by its own count of assistant turns.
 */
export interface ScenarioThread {
  readonly firstUserTextContains: string
  readonly turns: readonly ScenarioTurn[]
}

/** A scripted model: answers chosen by how many assistant turns the conversation already has. */
export interface Scenario {
  readonly name: string
  readonly model?: string
  readonly createdAt: number
  readonly turns: readonly ScenarioTurn[]
  /** The answer to requests that declare no tools (title and quota side requests). */
  readonly untooled?: ScenarioTurn
  /** Other conversations (subagents'), tried in order before the main one. */
  readonly threads?: readonly ScenarioThread[]
}

// `input`: a freeform (custom) tool's raw text, which the Responses wire sends as a `custom_tool_call`.
const toolCall = z
  .strictObject({ name: z.string().min(1), arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(), input: z.string().optional(), namespace: z.string().min(1).optional() })
  .refine((call) => call.arguments === undefined || call.input === undefined, { message: 'a call has arguments (a function tool) or input (a freeform tool), not both' })
const faultSchema = z.union([
  z.enum(['cut', 'malformed', 'error_event']),
  z.strictObject({
    status: z.number().int().min(400).max(599),
    retry_after: z.number().nonnegative().optional(),
    message: z.string().optional(),
    once: z.boolean().default(false),
    should_retry: z.boolean().default(false),
  }),
  z.strictObject({ cut: z.literal(true), once: z.boolean().default(false) }),
  z.strictObject({ malformed: z.literal(true), once: z.boolean().default(false) }),
  z.strictObject({ error_event: z.string(), once: z.boolean().default(false) }),
])
const turnSchema = z.strictObject({
  text: z.string().optional(),
  reasoning: z.string().optional(),
  tool_calls: z.array(toolCall).optional(),
  usage: z.strictObject({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative(), cached_tokens: z.number().int().nonnegative().default(0) }).optional(),
  stop: z.string().optional(),
  fault: faultSchema.optional(),
  pace_ms: z.number().nonnegative().optional(),
})
const threadSchema = z.strictObject({
  when: z.strictObject({ first_user_text_contains: z.string().min(1) }),
  turns: z.array(turnSchema).min(1),
})
const scenarioSchema = z.strictObject({
  scenario: z.string().min(1),
  model: z.string().optional(),
  created_at: z.number().int().nonnegative().default(1786706400),
  turns: z.array(turnSchema).min(1),
  untooled: turnSchema.optional(),
  threads: z.array(threadSchema).optional(),
})

function toFault(raw: z.infer<typeof faultSchema>): Fault {
  if (raw === 'cut') return { kind: 'cut', once: false }
  if (raw === 'malformed') return { kind: 'malformed', once: false }
  if (raw === 'error_event') return { kind: 'error-event', message: 'Overloaded', once: false }
  if ('status' in raw) {
    return { kind: 'status', status: raw.status, ...(raw.retry_after !== undefined ? { retryAfter: raw.retry_after } : {}), ...(raw.message !== undefined ? { message: raw.message } : {}), once: raw.once, shouldRetry: raw.should_retry }
  }
  if ('cut' in raw) return { kind: 'cut', once: raw.once }
  if ('malformed' in raw) return { kind: 'malformed', once: raw.once }
  return { kind: 'error-event', message: raw.error_event, once: raw.once }
}

function toTurn(raw: z.infer<typeof turnSchema>): ScenarioTurn {
  return {
    ...(raw.text !== undefined ? { text: raw.text } : {}),
    ...(raw.reasoning !== undefined ? { reasoning: raw.reasoning } : {}),
    ...(raw.tool_calls ? { toolCalls: raw.tool_calls.map((call) => ({ name: call.name, arguments: (call.arguments ?? {}) as JsonValue, ...(call.input !== undefined ? { input: call.input } : {}), ...(call.namespace !== undefined ? { namespace: call.namespace } : {}) })) } : {}),
    ...(raw.usage ? { usage: { inputTokens: raw.usage.input_tokens, outputTokens: raw.usage.output_tokens, cachedTokens: raw.usage.cached_tokens } } : {}),
    ...(raw.stop !== undefined ? { stop: raw.stop } : {}),
    ...(raw.fault !== undefined ? { fault: toFault(raw.fault) } : {}),
    ...(raw.pace_ms !== undefined ? { paceMs: raw.pace_ms } : {}),
  }
}

/** Checks a parsed scenario document; refusals name the JSON path. */
export function parseScenario(document: unknown, source = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(document)
  if (!result.success) {
    const issue = result.error.issues[0]
    const path = `$${(issue?.path ?? []).map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}`
    throw new RecorderError('VH_SCENARIO_INVALID', `${source}: ${path}: ${issue?.message ?? 'invalid'}`, { location: `${source} ${path}` })
  }
  const raw = result.data
  // Every turn with its path, so a malformed `$from_result` is refused where it stands.
  type RawTurn = z.infer<typeof turnSchema>
  const turns: [string, RawTurn][] = [
    ...raw.turns.map((turn, index): [string, RawTurn] => [`$.turns[${index}]`, turn]),
    ...(raw.untooled ? [['$.untooled', raw.untooled] as [string, RawTurn]] : []),
    ...(raw.threads ?? []).flatMap((thread, at) => thread.turns.map((turn, index): [string, RawTurn] => [`$.threads[${at}].turns[${index}]`, turn])),
  ]
  for (const [path, turn] of turns) {
    for (const [callIndex, call] of (turn.tool_calls ?? []).entries()) {
      const problem = checkReferences((call.arguments ?? {}) as JsonValue, `${path}.tool_calls[${callIndex}].arguments`)
      if (problem) throw new RecorderError('VH_SCENARIO_INVALID', `${source}: ${problem.path}: ${problem.message}`, { location: `${source} ${problem.path}` })
    }
  }
  return {
    name: raw.scenario,
    ...(raw.model !== undefined ? { model: raw.model } : {}),
    createdAt: raw.created_at,
    turns: raw.turns.map(toTurn),
    ...(raw.untooled ? { untooled: toTurn(raw.untooled) } : {}),
    ...(raw.threads ? { threads: raw.threads.map((thread) => ({ firstUserTextContains: thread.when.first_user_text_contains, turns: thread.turns.map(toTurn) })) } : {}),
  }
}

/** Reads a scenario file, YAML or JSON. */
export function loadScenario(path: string): Scenario {
  return readScenarioText(readRecorderInput(path, 'scenario', INPUT_LIMITS.scenario), path)
}

/** A scenario's text, YAML or JSON; `path` names it in refusals. */
export function readScenarioText(text: string, path: string): Scenario {
  // The shared reader: linear duplicate keys, yaml's alias limit, bounded depth.
  const read = readYaml(text)
  if (!read.ok) {
    const problem = read.problems[0] as (typeof read.problems)[number]
    throw new RecorderError('VH_SCENARIO_INVALID', `${path}:${problem.line}:${problem.col}: not YAML or JSON: ${problem.message} (${problem.code})`, { location: `${path}:${problem.line}:${problem.col}` })
  }
  return parseScenario(read.value, path)
}

/** A message's text: a string, or its text parts joined (`text`, `input_text` parts; Gemini `parts`). */
function textOf(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n')
}

/**
 * The text the user side opened the conversation a request carries with: its user messages before
 * the first assistant one (a harness may send its context as a user message before the prompt, as
 * Codex does), joined.
 */
export function openingUserText(route: Route, body: JsonValue | undefined): string {
  if (!isJsonObject(body)) return ''
  const gemini = route.wire === 'gemini'
  const list = gemini ? body['contents'] : route.wire === 'openai-responses' ? body['input'] : body['messages']
  if (typeof list === 'string') return list
  if (!Array.isArray(list)) return ''
  const texts: string[] = []
  for (const message of list) {
    if (!isJsonObject(message)) continue
    const role = message['role']
    if (role === (gemini ? 'model' : 'assistant') || (!gemini && role === undefined && message['type'] !== 'message')) break
    if (role === 'user') texts.push(textOf(gemini ? message['parts'] : message['content']))
  }
  return texts.join('\n')
}

/** How many assistant turns the conversation in this request already holds. */
export function assistantTurns(route: Route, body: JsonValue | undefined): number {
  if (!isJsonObject(body)) return 0
  if (route.wire === 'openai-responses') {
    const input = body['input']
    if (!Array.isArray(input)) return 0
    // A turn is a run of model-made items (reasoning, message, calls) between inputs.
    let turns = 0
    let inTurn = false
    for (const item of input) {
      const made = isJsonObject(item) && (item['role'] === 'assistant' || ['function_call', 'reasoning', 'custom_tool_call', 'local_shell_call', 'web_search_call'].includes(String(item['type'])))
      if (made && !inTurn) turns += 1
      inTurn = made
    }
    return turns
  }
  if (route.wire === 'gemini') {
    const contents = body['contents']
    return Array.isArray(contents) ? contents.filter((content) => isJsonObject(content) && content['role'] === 'model').length : 0
  }
  const messages = body['messages']
  return Array.isArray(messages) ? messages.filter((message) => isJsonObject(message) && message['role'] === 'assistant').length : 0
}

const STATUS_KINDS: Record<number, ErrorKind> = { 400: 'invalid_request', 401: 'authentication', 404: 'not_found', 413: 'too_large', 429: 'rate_limit', 529: 'overloaded', 503: 'overloaded' }

/** Answers requests from a scenario, deterministically; `once` faults fire on their first request only. */
export class ScenarioResponder {
  private readonly fired = new Set<string>()

  constructor(readonly scenario: Scenario) {}

  /**
   * The turn a request gets, its 1-based number and its id tag; `undefined` past the script's end.
   * A request whose conversation a thread claims (by its first user text) is that thread's.
   */
  pick(route: Route, body: JsonValue | undefined): { turn: ScenarioTurn; number: number; tag: string } | undefined {
    const tools = isJsonObject(body) ? body['tools'] : undefined
    if (this.scenario.untooled && !hasTools(route, tools)) return { turn: this.scenario.untooled, number: 0, tag: pad(0) }
    const { turns, thread } = this.conversationOf(route, body)
    const index = assistantTurns(route, body)
    const turn = turns[index]
    const tag = thread === 0 ? pad(index + 1) : `t${thread}_${pad(index + 1)}`
    return turn ? { turn, number: index + 1, tag } : undefined
  }

  /** The turns of the conversation a request carries: a thread's (1-based), or the main one's (0). */
  private conversationOf(route: Route, body: JsonValue | undefined): { turns: readonly ScenarioTurn[]; thread: number } {
    const threads = this.scenario.threads ?? []
    if (threads.length > 0) {
      const opening = openingUserText(route, body)
      const index = threads.findIndex((thread) => opening.includes(thread.firstUserTextContains))
      if (index >= 0) return { turns: (threads[index] as ScenarioThread).turns, thread: index + 1 }
    }
    return { turns: this.scenario.turns, thread: 0 }
  }

  respond(route: Route, body: JsonValue | undefined, bodyLength: number): { response: CassetteResponse; paceMs: number } {
    if (route.endpoint === 'count_tokens') return { response: route.wire === 'gemini' ? geminiCountTokensAnswer(bodyLength) : countTokensAnswer(bodyLength), paceMs: 0 }
    const picked = this.pick(route, body)
    if (!picked) {
      const { turns, thread } = this.conversationOf(route, body)
      const whose = thread === 0 ? '' : ` in thread ${thread} (first user text containing ${JSON.stringify((this.scenario.threads?.[thread - 1] as ScenarioThread).firstUserTextContains)})`
      const message = `the scenario ${this.scenario.name} has ${turns.length} turn(s)${whose} and this request is turn ${assistantTurns(route, body) + 1}`
      return { response: { status: 400, headers: { 'content-type': 'application/json', 'x-should-retry': 'false' }, bodyText: errorBody(route.wire, 'invalid_request', message, 400) }, paceMs: 0 }
    }
    const { turn, number, tag } = picked
    const object = isJsonObject(body) ? body : {}
    const streamOptions = object['stream_options']
    const ctx: TurnContext = {
      turn: number,
      tag,
      model: this.scenario.model ?? route.model ?? (typeof object['model'] === 'string' ? object['model'] : 'vh-emulated'),
      createdAt: this.scenario.createdAt,
      streamed: route.wire === 'gemini' ? route.endpoint === 'stream_generate' : object['stream'] === true,
      includeUsage: isJsonObject(streamOptions) && streamOptions['include_usage'] === true,
    }
    const fault = turn.fault && !(turn.fault.once && this.fired.has(tag)) ? turn.fault : undefined
    if (fault?.once) this.fired.add(tag)
    if (fault?.kind === 'status') return { response: statusFault(route, fault), paceMs: 0 }
    let resolved: ScenarioTurn
    try {
      resolved = withResultsTaken(turn, route, body)
    } catch (error) {
      if (!(error instanceof FromResultMiss)) throw error
      const message = `the scenario ${this.scenario.name} turn ${number}: ${error.message}`
      return { response: { status: 400, headers: { 'content-type': 'application/json', 'x-should-retry': 'false' }, bodyText: errorBody(route.wire, 'invalid_request', message, 400) }, paceMs: 0 }
    }
    const response = turnBytes(route, resolved, ctx)
    return { response: fault && response.frames ? streamFault(route, response, fault) : response, paceMs: turn.paceMs ?? 0 }
  }
}

/** The turn with its `$from_result` arguments taken from the request's last tool result; the turn itself when it has none. */
function withResultsTaken(turn: ScenarioTurn, route: Route, body: JsonValue | undefined): ScenarioTurn {
  const calls = turn.toolCalls
  if (!calls?.some((call) => holdsFromResult(call.arguments))) return turn
  const text = lastToolResult(route, body)
  return { ...turn, toolCalls: calls.map((call) => ({ ...call, arguments: resolveArguments(call.arguments, text) })) }
}

function turnBytes(route: Route, turn: ScenarioTurn, ctx: TurnContext): CassetteResponse {
  switch (route.wire) {
    case 'openai-responses':
      return responsesTurn(turn, ctx)
    case 'openai-chat':
      return chatTurn(turn, ctx)
    case 'anthropic-messages':
      return messagesTurn(turn, ctx)
    case 'gemini':
      return geminiTurn(turn, ctx)
  }
}

/** Whether a request declares tools; Gemini's side requests (routing, next-speaker) send none, or an empty declaration list. */
function hasTools(route: Route, tools: JsonValue | undefined): boolean {
  if (!Array.isArray(tools) || tools.length === 0) return false
  if (route.wire !== 'gemini') return true
  return tools.some((tool) => !isJsonObject(tool) || !Array.isArray(tool['functionDeclarations']) || tool['functionDeclarations'].length > 0)
}

function statusFault(route: Route, fault: Extract<Fault, { kind: 'status' }>): CassetteResponse {
  const kind = STATUS_KINDS[fault.status] ?? (fault.status >= 500 ? 'server' : 'invalid_request')
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-should-retry': String(fault.shouldRetry) }
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter)
  return { status: fault.status, headers, bodyText: errorBody(route.wire, kind, fault.message ?? `scripted ${fault.status}`, fault.status) }
}

function streamFault(route: Route, response: CassetteResponse, fault: Exclude<Fault, { kind: 'status' }>): CassetteResponse {
  const frames = [...(response.frames ?? [])]
  const keep = Math.max(1, Math.floor(frames.length / 2))
  if (fault.kind === 'cut') {
    // The next frame's first half, with no blank line: the writer closes the socket after it.
    const next = frameBytes(frames[keep] as CassetteFrame)
    return { ...response, frames: [...frames.slice(0, keep), { event: null, raw: next.slice(0, Math.max(1, Math.floor(next.length / 2))) }] }
  }
  if (fault.kind === 'malformed') {
    const event = frames[keep]?.event ?? null
    return { ...response, frames: [...frames.slice(0, keep), { event, dataText: '{not json}' }, ...frames.slice(keep)] }
  }
  const error =
    route.wire === 'anthropic-messages' ? messagesErrorFrame(fault.message)
    : route.wire === 'openai-chat' ? chatErrorFrame(fault.message)
    : route.wire === 'gemini' ? geminiErrorFrame(fault.message)
    : responsesErrorFrame(fault.message, keep)
  return { ...response, frames: [...frames.slice(0, keep), error] }
}
