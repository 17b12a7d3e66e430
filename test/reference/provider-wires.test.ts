import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { frameBytes, RequestCanonicalizer, splitSseFrames, startProvider, writeCassette, type Interaction, type WireName } from '../../recorders/index.js'
import { frameFromRaw } from '../../recorders/provider/cassette.js'
import { referenceFile } from './paths.js'

// The real request bodies and streams upstream's harness exchanged (../shared/reference/
// provider-wires): stored as cassette frames they replay byte for byte, and the real SDKs read
// them as the vendor's own.
function referenceInteraction(wire: WireName, path: string, stream: string, request?: string | Record<string, unknown>): Interaction {
  const text = readFileSync(referenceFile('provider-wires', stream), 'utf8')
  return {
    wire,
    request: { method: 'POST', path, headers: {}, body: (typeof request === 'string' ? JSON.parse(readFileSync(referenceFile('provider-wires', request), 'utf8')) : (request ?? { model: 'm' })) as never },
    response: { status: 200, headers: { 'content-type': 'text/event-stream' }, frames: splitSseFrames(text).map((raw) => frameFromRaw(raw)) },
  }
}

async function serve(interaction: Interaction) {
  const cassette = join(mkdtempSync(join(tmpdir(), 'vh-ref-')), 'reference.cassette.jsonl')
  writeCassette(cassette, { wire: interaction.wire, provenance: 'provider_emulated', tool: 'vitest-harness test', interactions: [interaction] })
  return startProvider({ mode: 'replay', cassette, env: {} })
}

describe('provider-wires reference streams', () => {
  it.each([
    ['openai-responses', 'openai-responses/turn-stream.sse'],
    ['openai-chat', 'openai-chat/openai-tool-calls.sse'],
    ['anthropic-messages', 'anthropic-messages/turn-stream.sse'],
  ] as const)('%s: stored frame by frame, the stream replays byte for byte', async (wire, stream) => {
    const path = wire === 'openai-responses' ? '/v1/responses' : wire === 'openai-chat' ? '/v1/chat/completions' : '/v1/messages'
    const interaction = referenceInteraction(wire, path, stream)
    const original = readFileSync(referenceFile('provider-wires', stream), 'utf8')
    expect((interaction.response.frames ?? []).map(frameBytes).join('')).toBe(original)
    const provider = await serve(interaction)
    const response = await fetch(`${provider.origin}${path}`, { method: 'POST', body: '{"model":"m"}' })
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(original))).toBe(true)
    await provider.close()
  })

  it('the OpenAI SDK reads the Chat Completions reference stream: two tool calls and the usage chunk', async () => {
    const request = { model: 'gpt-4o-2024-11-20', messages: [{ role: 'user' as const, content: 'weather in Berlin, and the time' }] }
    const provider = await serve(referenceInteraction('openai-chat', '/v1/chat/completions', 'openai-chat/openai-tool-calls.sse', { ...request, stream: true }))
    const client = new OpenAI({ baseURL: provider.baseUrl, apiKey: 'placeholder', maxRetries: 0 })
    const final = await client.chat.completions.stream(request).finalChatCompletion()
    expect(final.choices[0]?.message.tool_calls?.map((call) => (call.type === 'function' ? [call.id, call.function.name, call.function.arguments] : []))).toEqual([
      ['call_7Yq', 'lookup', '{"city": "Berlin"}'],
      ['call_9Zb', 'clock', '{}'],
    ])
    expect(final.usage).toEqual({ prompt_tokens: 88, completion_tokens: 24, total_tokens: 112 })
    await provider.close()
  })

  it('the Anthropic SDK reads the Messages reference stream: thinking with its signature, a tool call, text', async () => {
    const provider = await serve(referenceInteraction('anthropic-messages', '/v1/messages', 'anthropic-messages/turn-stream.sse', 'anthropic-messages/turn-request.json'))
    const client = new Anthropic({ baseURL: provider.origin, apiKey: 'placeholder', maxRetries: 0 })
    const body = JSON.parse(readFileSync(referenceFile('provider-wires', 'anthropic-messages/turn-request.json'), 'utf8')) as Anthropic.MessageCreateParamsStreaming
    const message = await client.messages.stream(body).finalMessage()
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'OPAQUE-REASONING-BLOB', signature: 'OPAQUE-SIGNATURE' },
      { type: 'tool_use', id: 'toolu_1', name: 'workspace_read', input: { path: 'README.md' } },
      { type: 'text', text: 'Reading the readme.' },
    ])
    expect(message.stop_reason).toBe('tool_use')
    expect(provider.requests().map((entry) => entry.outcome)).toEqual(['replayed'])
    await provider.close()
  })

  it("the harness's real request bodies match themselves across runs: prompt_cache_key is volatile, content is not", () => {
    const canonicalizer = new RequestCanonicalizer()
    for (const [path, file] of [['/v1/responses', 'openai-responses/turn-request.json'], ['/v1/messages', 'anthropic-messages/turn-request.json']] as const) {
      const body = JSON.parse(readFileSync(referenceFile('provider-wires', file), 'utf8')) as Record<string, unknown>
      const identity = canonicalizer.identity({ method: 'POST', path, body: body as never })
      expect(canonicalizer.identity({ method: 'POST', path, body: { ...body, prompt_cache_key: 'another-session' } as never })).toBe(identity)
      expect(canonicalizer.identity({ method: 'POST', path, body: { ...body, temperature: 0.3 } as never })).not.toBe(identity)
    }
  })
})
