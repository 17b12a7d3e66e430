import type { CassetteFrame, CassetteResponse } from '../cassette.js'
import type { JsonValue } from '../json.js'
import { argumentsText, halves, neutralStop, usageOf, type ScriptedTurn, type TurnContext } from './types.js'

// Anthropic Messages: `POST /v1/messages`. `event:` lines are mandatory (the SDK dispatches on
// them); a `ping` follows message_start; no sentinel. `count_tokens` answers `{input_tokens}`.

type Json = { [key: string]: JsonValue }

function stopReason(turn: ScriptedTurn): string {
  const stop = neutralStop(turn)
  return stop === 'end' ? 'end_turn' : stop
}

function blocks(turn: ScriptedTurn, ctx: TurnContext): Json[] {
  const out: Json[] = []
  if (turn.reasoning !== undefined) out.push({ type: 'thinking', thinking: turn.reasoning, signature: `sig_vh_${ctx.tag}` })
  if (turn.text !== undefined) out.push({ type: 'text', text: turn.text })
  ;(turn.toolCalls ?? []).forEach((call, index) => {
    out.push({ type: 'tool_use', id: `toolu_vh_${ctx.tag}_${index + 1}`, name: call.name, input: typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as JsonValue) : call.arguments })
  })
  return out
}

function usageJson(turn: ScriptedTurn, outputTokens: number): Json {
  const usage = usageOf(turn)
  return { input_tokens: usage.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: usage.cachedTokens, output_tokens: outputTokens }
}

/** A scripted turn as Messages bytes: the event stream, or the message object. */
export function messagesTurn(turn: ScriptedTurn, ctx: TurnContext): CassetteResponse {
  const id = `msg_vh_${ctx.tag}`
  const headers = { 'request-id': `req_vh_${ctx.tag}` }
  const content = blocks(turn, ctx)
  if (!ctx.streamed) {
    return {
      status: 200,
      headers: { 'content-type': 'application/json', ...headers },
      body: { id, type: 'message', role: 'assistant', model: ctx.model, content, stop_reason: stopReason(turn), stop_sequence: null, usage: usageJson(turn, usageOf(turn).outputTokens) },
    }
  }
  const frames: CassetteFrame[] = []
  const push = (type: string, fields: Json) => frames.push({ event: type, data: { type, ...fields } })
  push('message_start', { message: { id, type: 'message', role: 'assistant', model: ctx.model, content: [], stop_reason: null, stop_sequence: null, usage: usageJson(turn, 1) } })
  push('ping', {})
  content.forEach((block, index) => {
    if (block['type'] === 'thinking') {
      push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })
      push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block['thinking'] as string } })
      push('content_block_delta', { index, delta: { type: 'signature_delta', signature: block['signature'] as string } })
    } else if (block['type'] === 'text') {
      push('content_block_start', { index, content_block: { type: 'text', text: '' } })
      for (const part of halves(block['text'] as string)) push('content_block_delta', { index, delta: { type: 'text_delta', text: part } })
    } else {
      push('content_block_start', { index, content_block: { type: 'tool_use', id: block['id'] as string, name: block['name'] as string, input: {} } })
      for (const part of halves(argumentsText(block['input'] as JsonValue))) push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } })
    }
    push('content_block_stop', { index })
  })
  push('message_delta', { delta: { stop_reason: stopReason(turn), stop_sequence: null }, usage: { output_tokens: usageOf(turn).outputTokens } })
  push('message_stop', {})
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', ...headers }, frames }
}

/** `count_tokens`: a deterministic estimate from the body's length. */
export function countTokensAnswer(bodyLength: number): CassetteResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: { input_tokens: Math.max(1, Math.ceil(bodyLength / 4)) } }
}

/** The `error` event a Messages stream ends with when the server fails mid-stream. */
export function messagesErrorFrame(message: string): CassetteFrame {
  return { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message } } }
}
