import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { frameBytes, readCassette, startProvider, type CassetteFrame, type Provider } from '../../../recorders/index.js'
import { READ_FILE_TOOL, scratchDir, TEXT, TWO_TURNS } from '../../helpers/provider.js'

// The real SDK clients against recorded cassettes: what they parse must be exactly what the
// cassette holds, on every wire, however the stream's bytes are cut into writes.

interface Seen {
  text: string
  calls: { name: string; arguments: string }[]
}

type Client = (urls: { baseUrl: string; origin: string }) => Promise<Seen>

const KEY = 'sk-test-placeholder-key-000000000000'

const responsesClient: Client = async ({ baseUrl }) => {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: KEY, maxRetries: 0 })
  const stream = client.responses.stream({ model: 'gpt-test', input: 'read the readme', tools: [{ type: 'function', ...READ_FILE_TOOL, strict: false }] })
  const final = await stream.finalResponse()
  const calls = final.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: item.arguments }] : []))
  return { text: final.output_text, calls }
}

const chatClient: Client = async ({ baseUrl }) => {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: KEY, maxRetries: 0 })
  const stream = client.chat.completions.stream({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'read the readme' }],
    tools: [{ type: 'function', function: READ_FILE_TOOL }],
    stream_options: { include_usage: true },
  })
  const final = await stream.finalChatCompletion()
  const message = final.choices[0]?.message
  const calls = (message?.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [{ name: call.function.name, arguments: call.function.arguments }] : []))
  return { text: message?.content ?? '', calls }
}

const messagesClient: Client = async ({ origin }) => {
  const client = new Anthropic({ baseURL: origin, apiKey: KEY, maxRetries: 0 })
  const stream = client.messages.stream({
    model: 'claude-test',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'read the readme' }],
    tools: [{ name: READ_FILE_TOOL.name, description: READ_FILE_TOOL.description, input_schema: READ_FILE_TOOL.parameters }],
  })
  const final = await stream.finalMessage()
  let text = ''
  const calls: Seen['calls'] = []
  for (const block of final.content) {
    if (block.type === 'text') text += block.text
    if (block.type === 'tool_use') calls.push({ name: block.name, arguments: JSON.stringify(block.input) })
  }
  return { text, calls }
}

const geminiClient: Client = async ({ origin }) => {
  const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: origin } })
  const stream = await client.models.generateContentStream({
    model: 'gemini-test',
    contents: 'read the readme',
    config: { tools: [{ functionDeclarations: [{ name: READ_FILE_TOOL.name, description: READ_FILE_TOOL.description, parametersJsonSchema: READ_FILE_TOOL.parameters }] }] },
  })
  let text = ''
  const calls: Seen['calls'] = []
  for await (const chunk of stream) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.text !== undefined && part.thought !== true) text += part.text
      if (part.functionCall) calls.push({ name: part.functionCall.name ?? '', arguments: JSON.stringify(part.functionCall.args) })
    }
  }
  return { text, calls }
}

/** What the cassette's frames say, read without any SDK: the deltas joined per wire. */
function recordedContent(wire: string, frames: readonly CassetteFrame[]): Seen {
  let text = ''
  const calls: Seen['calls'] = []
  for (const frame of frames) {
    const data = frame.data as Record<string, unknown> | undefined
    if (!data) continue
    if (wire === 'openai-responses') {
      if (data['type'] === 'response.output_text.delta') text += data['delta'] as string
      if (data['type'] === 'response.output_item.added' && (data['item'] as { type: string }).type === 'function_call') calls.push({ name: (data['item'] as { name: string }).name, arguments: '' })
      if (data['type'] === 'response.function_call_arguments.delta') (calls[calls.length - 1] as Seen['calls'][number]).arguments += data['delta'] as string
    } else if (wire === 'openai-chat') {
      const delta = ((data['choices'] as { delta: Record<string, unknown> }[] | undefined)?.[0]?.delta ?? {}) as { content?: string | null; tool_calls?: { index: number; function: { name?: string; arguments?: string } }[] }
      if (delta.content) text += delta.content
      for (const call of delta.tool_calls ?? []) {
        if (call.function.name !== undefined) calls[call.index] = { name: call.function.name, arguments: '' }
        ;(calls[call.index] as Seen['calls'][number]).arguments += call.function.arguments ?? ''
      }
    } else if (wire === 'gemini') {
      const parts = ((data['candidates'] as { content?: { parts?: Record<string, unknown>[] } }[] | undefined)?.[0]?.content?.parts ?? []) as { text?: string; thought?: boolean; functionCall?: { name: string; args: unknown } }[]
      for (const part of parts) {
        if (part.text !== undefined && part.thought !== true) text += part.text
        if (part.functionCall) calls.push({ name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args) })
      }
    } else {
      const delta = data['delta'] as { type?: string; text?: string; partial_json?: string } | undefined
      if (data['type'] === 'content_block_start' && (data['content_block'] as { type: string }).type === 'tool_use') calls.push({ name: (data['content_block'] as { name: string }).name, arguments: '' })
      if (delta?.type === 'text_delta') text += delta.text
      if (delta?.type === 'input_json_delta') (calls[calls.length - 1] as Seen['calls'][number]).arguments += delta.partial_json
    }
  }
  return { text, calls }
}

const WIRES: [string, Client][] = [
  ['openai-responses', responsesClient],
  ['openai-chat', chatClient],
  ['anthropic-messages', messagesClient],
  ['gemini', geminiClient],
]

describe.each(WIRES)('the real SDK on %s', (wire, client) => {
  const dir = scratchDir()
  const cassette = join(dir, `${wire}.cassette.jsonl`)
  let provider: Provider
  let frames: readonly CassetteFrame[]

  beforeAll(async () => {
    // Record the scripted turn once (the scenario stands in for the vendor), then replay it.
    const recorder = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
    await client(recorder)
    await recorder.close()
    const interaction = readCassette(cassette).interactions[0]
    frames = interaction?.response.frames ?? []
    provider = await startProvider({ mode: 'replay', cassette, env: {} })
  })
  afterAll(() => provider.close())

  it('streams text and a tool call in replay mode and gets exactly the recorded content', async () => {
    const recorded = recordedContent(wire, frames)
    expect(recorded.text).toBe(TEXT)
    expect(recorded.calls).toEqual([{ name: 'read_file', arguments: '{"path":"README.md","limit":20}' }])
    const seen = await client(provider)
    expect(seen).toEqual(recorded)
    expect(provider.misses()).toEqual([])
    expect(provider.requests().at(-1)?.outcome).toBe('replayed')
  })

  it('gets the same content with the stream re-chunked at every byte offset of one frame', async () => {
    const recorded = recordedContent(wire, frames)
    // The frame carrying the first text delta, with its multi-byte characters.
    const index = frames.findIndex((frame) => JSON.stringify(frame.data ?? '').includes('ünïcode') || JSON.stringify(frame.data ?? '').includes('Reading the'))
    expect(index).toBeGreaterThanOrEqual(0)
    const start = frames.slice(0, index).reduce((sum, frame) => sum + Buffer.byteLength(frameBytes(frame)), 0)
    const length = Buffer.byteLength(frameBytes(frames[index] as CassetteFrame))
    for (let offset = 1; offset < length; offset++) {
      const scope = provider.openScope({ mode: 'replay', cassette, rechunk: [start + offset], env: {} })
      const seen = await client(scope)
      expect(seen, `split ${offset} bytes into frame ${index}`).toEqual(recorded)
      expect(provider.closeScope(scope.id).misses).toEqual([])
    }
  }, 120_000)

  it('serves the recorded bytes exactly, frame by frame', async () => {
    const interaction = readCassette(cassette).interactions[0]
    if (!interaction) throw new Error('no interaction recorded')
    const url = `${provider.origin}${interaction.request.path}`
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(interaction.request.body) })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.equals(Buffer.from(frames.map(frameBytes).join(''), 'utf8'))).toBe(true)
  })
})
