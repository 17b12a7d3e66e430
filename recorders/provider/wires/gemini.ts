import type { CassetteFrame, CassetteResponse } from '../cassette.js'
import type { JsonValue } from '../json.js'
import { halves, neutralStop, usageOf, type ScriptedTurn, type TurnContext } from './types.js'

// Gemini API: `POST /v1beta/models/{model}:generateContent` answers one GenerateContentResponse;
// `:streamGenerateContent?alt=sse` answers data-only frames, each a whole GenerateContentResponse
// holding that chunk's parts, no sentinel; the last carries `finishReason` and the full
// `usageMetadata`. A function call arrives whole in one part (no argument deltas); it carries an
// `id` here, which Gemini CLI keeps instead of minting one from the clock, so replays match.
// `:countTokens` answers `{totalTokens}`.

type Json = { [key: string]: JsonValue }

function finishReason(turn: ScriptedTurn): string {
  const stop = neutralStop(turn)
  // Gemini ends a turn that calls tools with STOP too: the calls are the parts.
  return stop === 'end' || stop === 'tool_use' ? 'STOP' : stop === 'max_tokens' || stop === 'incomplete' ? 'MAX_TOKENS' : stop
}

function parsedArgs(value: JsonValue): JsonValue {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as JsonValue
  } catch {
    return value
  }
}

function usageJson(turn: ScriptedTurn, final: boolean): Json {
  const usage = usageOf(turn)
  if (!final) return { promptTokenCount: usage.inputTokens, totalTokenCount: usage.inputTokens }
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    cachedContentTokenCount: usage.cachedTokens,
  }
}

function response(ctx: TurnContext, parts: Json[], usage: Json, finish: string | undefined): Json {
  const candidate: Json = { content: { parts, role: 'model' } }
  if (finish !== undefined) candidate['finishReason'] = finish
  candidate['index'] = 0
  return { candidates: [candidate], usageMetadata: usage, modelVersion: ctx.model, responseId: `vh-resp-${ctx.tag}` }
}

/** The turn's parts in order: a thought, the text, then one part per function call. */
function callParts(turn: ScriptedTurn, ctx: TurnContext): Json[] {
  return (turn.toolCalls ?? []).map((call, index) => ({ functionCall: { id: `call_vh_${ctx.tag}_${index + 1}`, name: call.name, args: parsedArgs(call.arguments) } }))
}

function partsOf(turn: ScriptedTurn, ctx: TurnContext): Json[] {
  const parts: Json[] = []
  if (turn.reasoning !== undefined) parts.push({ text: turn.reasoning, thought: true })
  if (turn.text !== undefined) parts.push({ text: turn.text })
  return [...parts, ...callParts(turn, ctx)]
}

/** A scripted turn as Gemini bytes: the SSE chunk stream, or the response object. */
export function geminiTurn(turn: ScriptedTurn, ctx: TurnContext): CassetteResponse {
  if (!ctx.streamed) {
    return { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: response(ctx, partsOf(turn, ctx), usageJson(turn, true), finishReason(turn)) }
  }
  const chunks: Json[][] = []
  if (turn.reasoning !== undefined) chunks.push([{ text: turn.reasoning, thought: true }])
  if (turn.text !== undefined) for (const part of halves(turn.text)) chunks.push([{ text: part }])
  const calls = callParts(turn, ctx)
  if (calls.length > 0) chunks.push(calls)
  if (chunks.length === 0) chunks.push([{ text: '' }])
  const frames: CassetteFrame[] = chunks.map((parts, index) => {
    const last = index === chunks.length - 1
    return { event: null, data: response(ctx, parts, usageJson(turn, last), last ? finishReason(turn) : undefined) }
  })
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, frames }
}

/** `countTokens`: a deterministic estimate from the body's length. */
export function geminiCountTokensAnswer(bodyLength: number): CassetteResponse {
  return { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: { totalTokens: Math.max(1, Math.ceil(bodyLength / 4)) } }
}

/** A mid-stream failure on Gemini: a data frame whose body is a google.rpc error, as the SDK's chunk check reads it. */
export function geminiErrorFrame(message: string): CassetteFrame {
  return { event: null, data: { error: { code: 503, message, status: 'UNAVAILABLE' } } }
}
