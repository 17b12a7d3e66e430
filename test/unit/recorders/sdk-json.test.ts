import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type Provider } from '../../../recorders/index.js'
import { READ_FILE_TOOL, scratchDir, TEXT, TWO_TURNS } from '../../helpers/provider.js'

// The non-streamed JSON forms and count_tokens, recorded from the scenario then replayed, as the
// real SDKs read them.
let provider: Provider
const cassette = join(scratchDir(), 'json.cassette.jsonl')

async function exercise(target: Provider) {
  const openai = new OpenAI({ baseURL: target.baseUrl, apiKey: 'placeholder', maxRetries: 0 })
  const anthropic = new Anthropic({ baseURL: target.origin, apiKey: 'placeholder', maxRetries: 0 })
  const response = await openai.responses.create({ model: 'gpt-test', input: 'read', tools: [{ type: 'function', ...READ_FILE_TOOL, strict: false }] })
  const chat = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'read' }], tools: [{ type: 'function', function: READ_FILE_TOOL }] })
  const message = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'read' }], tools: [{ name: 'read_file', input_schema: READ_FILE_TOOL.parameters }] })
  const tokens = await anthropic.messages.countTokens({ model: 'claude-test', messages: [{ role: 'user', content: 'read' }] })
  const gemini = new GoogleGenAI({ apiKey: 'placeholder', httpOptions: { baseUrl: target.origin } })
  const generated = await gemini.models.generateContent({ model: 'gemini-test', contents: 'read', config: { tools: [{ functionDeclarations: [{ name: 'read_file', parametersJsonSchema: READ_FILE_TOOL.parameters }] }] } })
  const geminiTokens = await gemini.models.countTokens({ model: 'gemini-test', contents: 'read' })
  return { response, chat, message, tokens, generated, geminiTokens }
}

beforeAll(async () => {
  const recorder = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
  await exercise(recorder)
  await recorder.close()
  provider = await startProvider({ mode: 'replay', cassette, env: {} })
})
afterAll(() => provider.close())

describe('non-streamed answers, replayed', () => {
  it('each wire answers its JSON form, and count_tokens its estimate', async () => {
    const { response, chat, message, tokens, generated, geminiTokens } = await exercise(provider)
    expect(response.output_text).toBe(TEXT)
    expect(response.output.find((item) => item.type === 'function_call')).toMatchObject({ name: 'read_file', arguments: '{"path":"README.md","limit":20}', call_id: 'call_vh_001_1' })
    expect(response.usage).toMatchObject({ input_tokens: 42, output_tokens: 9, input_tokens_details: { cached_tokens: 7 } })
    expect(chat.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: TEXT, tool_calls: [{ id: 'call_vh_001_1', function: { name: 'read_file' } }] } })
    expect(message).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'text', text: TEXT }, { type: 'tool_use', name: 'read_file', input: { path: 'README.md', limit: 20 } }] })
    expect(tokens.input_tokens).toBeGreaterThan(0)
    expect(generated.text).toBe(TEXT)
    expect(generated.functionCalls).toEqual([{ id: 'call_vh_001_1', name: 'read_file', args: { path: 'README.md', limit: 20 } }])
    expect(generated.candidates?.[0]?.finishReason).toBe('STOP')
    expect(generated.usageMetadata).toMatchObject({ promptTokenCount: 42, candidatesTokenCount: 9, totalTokenCount: 51, cachedContentTokenCount: 7 })
    expect(geminiTokens.totalTokens).toBeGreaterThan(0)
    expect(provider.requests().map((entry) => [entry.path, entry.stream, entry.outcome])).toEqual([
      ['/v1/responses', false, 'replayed'],
      ['/v1/chat/completions', false, 'replayed'],
      ['/v1/messages', false, 'replayed'],
      ['/v1/messages/count_tokens', false, 'replayed'],
      ['/v1beta/models/gemini-test:generateContent', false, 'replayed'],
      ['/v1beta/models/gemini-test:countTokens', false, 'replayed'],
    ])
  })
})
