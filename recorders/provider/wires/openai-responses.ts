import type { CassetteFrame, CassetteResponse } from '../cassette.js'
import type { JsonValue } from '../json.js'
import { argumentsText, halves, neutralStop, usageOf, type ScriptedTurn, type TurnContext } from './types.js'

// OpenAI Responses: `POST /v1/responses`. Every event is `event: <type>` + `data: {"type":…,
// "sequence_number":n}`; no `[DONE]`; the stream ends after response.completed (or .incomplete).

type Json = { [key: string]: JsonValue }

function baseResponse(ctx: TurnContext, status: string, output: JsonValue[], usage: JsonValue): Json {
  return {
    id: `resp_vh_${ctx.tag}`,
    object: 'response',
    created_at: ctx.createdAt,
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    max_output_tokens: null,
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  }
}

function usageJson(turn: ScriptedTurn): Json {
  const usage = usageOf(turn)
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  }
}

/** The items of the finished response, in output order: reasoning, message, then calls. */
function outputItems(turn: ScriptedTurn, ctx: TurnContext): Json[] {
  const items: Json[] = []
  if (turn.reasoning !== undefined) items.push({ id: `rs_vh_${ctx.tag}`, type: 'reasoning', summary: [{ type: 'summary_text', text: turn.reasoning }] })
  if (turn.text !== undefined) {
    items.push({ id: `msg_vh_${ctx.tag}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: turn.text }] })
  }
  ;(turn.toolCalls ?? []).forEach((call, index) => {
    const callId = `call_vh_${ctx.tag}_${index + 1}`
    const namespace: Json = call.namespace !== undefined ? { namespace: call.namespace } : {}
    if (call.input !== undefined) items.push({ id: `ctc_vh_${ctx.tag}_${index + 1}`, type: 'custom_tool_call', status: 'completed', call_id: callId, name: call.name, input: call.input, ...namespace })
    else items.push({ id: `fc_vh_${ctx.tag}_${index + 1}`, type: 'function_call', status: 'completed', arguments: argumentsText(call.arguments), call_id: callId, name: call.name, ...namespace })
  })
  return items
}

function frames(turn: ScriptedTurn, ctx: TurnContext): CassetteFrame[] {
  const out: CassetteFrame[] = []
  let sequence = 0
  const push = (type: string, fields: Json) => out.push({ event: type, data: { type, ...fields, sequence_number: sequence++ } })
  const incomplete = neutralStop(turn) === 'max_tokens' || neutralStop(turn) === 'incomplete'
  push('response.created', { response: baseResponse(ctx, 'in_progress', [], null) })
  push('response.in_progress', { response: baseResponse(ctx, 'in_progress', [], null) })
  const items = outputItems(turn, ctx)
  items.forEach((item, outputIndex) => {
    const id = item['id'] as string
    if (item['type'] === 'reasoning') {
      push('response.output_item.added', { output_index: outputIndex, item: { id, type: 'reasoning', summary: [] } })
      const text = turn.reasoning ?? ''
      push('response.reasoning_summary_part.added', { item_id: id, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } })
      push('response.reasoning_summary_text.delta', { item_id: id, output_index: outputIndex, summary_index: 0, delta: text })
      push('response.reasoning_summary_text.done', { item_id: id, output_index: outputIndex, summary_index: 0, text })
      push('response.reasoning_summary_part.done', { item_id: id, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text } })
    } else if (item['type'] === 'message') {
      const text = turn.text ?? ''
      push('response.output_item.added', { output_index: outputIndex, item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } })
      push('response.content_part.added', { item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } })
      for (const delta of halves(text)) push('response.output_text.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta, logprobs: [] })
      push('response.output_text.done', { item_id: id, output_index: outputIndex, content_index: 0, text, logprobs: [] })
      push('response.content_part.done', { item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text } })
    } else if (item['type'] === 'custom_tool_call') {
      push('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', input: '' } })
      push('response.custom_tool_call_input.delta', { item_id: id, output_index: outputIndex, delta: item['input'] as string })
      push('response.custom_tool_call_input.done', { item_id: id, output_index: outputIndex, input: item['input'] as string })
    } else {
      push('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } })
      push('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta: item['arguments'] as string })
      push('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, name: item['name'] as string, arguments: item['arguments'] as string })
    }
    push('response.output_item.done', { output_index: outputIndex, item })
  })
  const status = incomplete ? 'incomplete' : 'completed'
  push(`response.${status}`, { response: baseResponse(ctx, status, items, usageJson(turn)) })
  return out
}

/** A scripted turn as OpenAI Responses bytes: an SSE stream, or the response object. */
export function responsesTurn(turn: ScriptedTurn, ctx: TurnContext): CassetteResponse {
  const headers = { 'x-request-id': `req_vh_${ctx.tag}` }
  if (!ctx.streamed) {
    const status = neutralStop(turn) === 'max_tokens' ? 'incomplete' : 'completed'
    return { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: baseResponse(ctx, status, outputItems(turn, ctx), usageJson(turn)) }
  }
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', ...headers }, frames: frames(turn, ctx) }
}

/** The `error` event a Responses stream ends with when the server fails mid-stream. */
export function responsesErrorFrame(message: string, sequence: number): CassetteFrame {
  return { event: 'error', data: { type: 'error', code: 'server_error', message, param: null, sequence_number: sequence } }
}
