import type { CassetteFrame, CassetteResponse } from '../cassette.js'
import type { JsonValue } from '../json.js'
import { argumentsText, halves, neutralStop, usageOf, type ScriptedTurn, type TurnContext } from './types.js'

// OpenAI Chat Completions: `POST /v1/chat/completions`. Data-only chunks, `data: [DONE]` last;
// with `stream_options.include_usage` every chunk carries `usage: null` and one last chunk has
// `choices: []` and the usage.

type Json = { [key: string]: JsonValue }

function finishReason(turn: ScriptedTurn): string {
  const stop = neutralStop(turn)
  return stop === 'end' ? 'stop' : stop === 'tool_use' ? 'tool_calls' : stop === 'max_tokens' ? 'length' : stop
}

function usageJson(turn: ScriptedTurn): Json {
  const usage = usageOf(turn)
  return { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens, prompt_tokens_details: { cached_tokens: usage.cachedTokens } }
}

function callId(ctx: TurnContext, index: number): string {
  return `call_vh_${ctx.tag}_${index + 1}`
}

/** A scripted turn as Chat Completions bytes: the chunk stream, or the completion object. */
export function chatTurn(turn: ScriptedTurn, ctx: TurnContext): CassetteResponse {
  const id = `chatcmpl-vh-${ctx.tag}`
  const headers = { 'x-request-id': `req_vh_${ctx.tag}` }
  const calls = turn.toolCalls ?? []
  if (!ctx.streamed) {
    const message: Json = { role: 'assistant', content: turn.text ?? null, refusal: null }
    if (calls.length > 0) message['tool_calls'] = calls.map((call, index) => ({ id: callId(ctx, index), type: 'function', function: { name: call.name, arguments: argumentsText(call.arguments) } }))
    return {
      status: 200,
      headers: { 'content-type': 'application/json', ...headers },
      body: { id, object: 'chat.completion', created: ctx.createdAt, model: ctx.model, choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(turn) }], usage: usageJson(turn) },
    }
  }
  const frames: CassetteFrame[] = []
  const chunk = (delta: Json, finish: string | null) => {
    const data: Json = { id, object: 'chat.completion.chunk', created: ctx.createdAt, model: ctx.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }
    if (ctx.includeUsage) data['usage'] = null
    frames.push({ event: null, data })
  }
  chunk({ role: 'assistant', content: turn.text === undefined ? null : '' }, null)
  if (turn.text !== undefined) for (const part of halves(turn.text)) chunk({ content: part }, null)
  calls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: callId(ctx, index), type: 'function', function: { name: call.name, arguments: '' } }] }, null)
    chunk({ tool_calls: [{ index, function: { arguments: argumentsText(call.arguments) } }] }, null)
  })
  chunk({}, finishReason(turn))
  if (ctx.includeUsage) frames.push({ event: null, data: { id, object: 'chat.completion.chunk', created: ctx.createdAt, model: ctx.model, choices: [], usage: usageJson(turn) } })
  frames.push({ event: null, dataText: '[DONE]' })
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', ...headers }, frames }
}

/** A mid-stream failure on Chat Completions: a data chunk whose body is an `error`. */
export function chatErrorFrame(message: string): CassetteFrame {
  return { event: null, data: { error: { message, type: 'server_error', param: null, code: null } } }
}
