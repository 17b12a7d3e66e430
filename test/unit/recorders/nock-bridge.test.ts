import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
// The module object, not a destructured `request`: nock patches `https.request` on it.
import https from 'node:https'
import { join } from 'node:path'
import nock from 'nock'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bridgeToCassette, frameBytes, readCassette, startProvider, type NockBridge } from '../../../recorders/index.js'
import { scratchDir, TEXT, TWO_TURNS } from '../../helpers/provider.js'

// In-process clients at the vendors' real hosts, answered from the same cassettes the loopback
// provider serves — no server, no network.
const cassette = join(scratchDir(), 'bridge.cassette.jsonl')
const MESSAGES = { model: 'claude-test', max_tokens: 64, messages: [{ role: 'user' as const, content: 'read the readme' }], tools: [{ name: 'read_file', input_schema: { type: 'object' as const } }] }
const CHAT = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'read the readme' }], tools: [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object' } } }] }
let bridge: NockBridge | undefined

beforeAll(async () => {
  const recorder = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
  await (await fetch(`${recorder.origin}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...MESSAGES, stream: true }) })).text()
  await (await fetch(`${recorder.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify(CHAT) })).text()
  await recorder.close()
})
afterEach(() => {
  bridge?.close()
  bridge = undefined
})

describe('the nock bridge', () => {
  it('answers the Anthropic SDK at api.anthropic.com (global fetch) from the cassette, streamed', async () => {
    bridge = bridgeToCassette({ cassette, env: {} })
    const client = new Anthropic({ apiKey: 'placeholder', maxRetries: 0 })
    const message = await client.messages.stream({ ...MESSAGES }).finalMessage()
    expect(message.content).toEqual([
      { type: 'text', text: TEXT },
      { type: 'tool_use', id: 'toolu_vh_001_1', name: 'read_file', input: { path: 'README.md', limit: 20 } },
    ])
    expect(bridge.requests().map((entry) => entry.outcome)).toEqual(['replayed'])
  })

  it('answers node:https with the recorded bytes', async () => {
    bridge = bridgeToCassette({ cassette, env: {} })
    const expected = (readCassette(cassette).interactions[0]?.response.frames ?? []).map(frameBytes).join('')
    const body = await new Promise<string>((resolve, reject) => {
      const req = https.request('https://api.anthropic.com/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.end(JSON.stringify({ ...MESSAGES, stream: true }))
    })
    expect(body).toBe(expected)
  })

  it('answers the OpenAI SDK at api.openai.com, and a miss is an error in the wire shape', async () => {
    bridge = bridgeToCassette({ cassette, env: {} })
    const client = new OpenAI({ apiKey: 'placeholder', maxRetries: 0 })
    const completion = await client.chat.completions.create(CHAT)
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'read_file', arguments: '{"path":"README.md","limit":20}' } })
    const miss = await client.chat.completions.create({ ...CHAT, model: 'gpt-other' }).catch((error: unknown) => error)
    expect(miss).toBeInstanceOf(OpenAI.BadRequestError)
    expect(bridge.misses()[0]).toMatchObject({ differsAt: '$.model', recordedValue: 'gpt-test', receivedValue: 'gpt-other' })
  })

  it('removes only its own interceptors and refuses an upstream', () => {
    const own = nock('https://example.test').get('/x').reply(200, 'mine')
    bridgeToCassette({ cassette, env: {} }).close()
    expect(own.isDone()).toBe(false)
    expect(nock.pendingMocks()).toEqual(['GET https://example.test:443/x'])
    nock.cleanAll()
    expect(() => bridgeToCassette({ cassette, upstream: 'https://api.openai.com' } as never)).toThrow(/answers from cassettes and scenarios only/)
  })
})
