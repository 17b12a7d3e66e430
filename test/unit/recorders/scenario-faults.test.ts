import Anthropic from '@anthropic-ai/sdk'
import { ApiError, GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadScenario, parseScenario, startProvider, type Provider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'
import { SECRETS } from '../../helpers/secrets.js'

// Scripted faults, as the real SDKs meet them.
let provider: Provider | undefined
afterEach(() => provider?.close())

const TOOLS = [{ type: 'function' as const, name: 'read_file', parameters: { type: 'object' }, strict: false }]

async function withTurn(turn: Record<string, unknown>): Promise<Provider> {
  provider = await startProvider({ scenario: parseScenario({ scenario: 'fault', turns: [{ text: 'a fine answer for you', ...turn }] }), env: {} })
  return provider
}

describe('scenario faults', () => {
  it.each([
    [503, OpenAI.InternalServerError, { 'retry-after': '5' }],
    [401, OpenAI.AuthenticationError, {}],
    [400, OpenAI.BadRequestError, {}],
    [429, OpenAI.RateLimitError, {}],
  ] as const)('status %i reaches the OpenAI client as its error class, once (x-should-retry: false)', async (status, errorClass, headers) => {
    const served = await withTurn({ fault: { status, ...(status === 503 ? { retry_after: 5 } : {}) } })
    const client = new OpenAI({ baseURL: served.baseUrl, apiKey: 'placeholder' })
    const error = await client.responses.create({ model: 'm', input: 'hi', tools: TOOLS }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(errorClass)
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false')
    for (const [name, value] of Object.entries(headers)) expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get(name)).toBe(value)
    expect(served.requests()).toHaveLength(1)
  })

  it('a once-only 503 lets a retrying client through on its second try', async () => {
    const served = await withTurn({ fault: { status: 503, retry_after: 0, once: true, should_retry: true } })
    const client = new OpenAI({ baseURL: served.baseUrl, apiKey: 'placeholder', maxRetries: 1 })
    const response = await client.responses.create({ model: 'm', input: 'hi', tools: TOOLS })
    expect(response.output_text).toBe('a fine answer for you')
    expect(served.requests().map((entry) => entry.status)).toEqual([503, 200])
  })

  it('a stream cut mid-event fails the stream', async () => {
    const served = await withTurn({ fault: 'cut' })
    const client = new Anthropic({ baseURL: served.origin, apiKey: 'placeholder', maxRetries: 0 })
    const failure = await client.messages.stream({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }).finalMessage().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
  })

  it('malformed data raises in the OpenAI parser', async () => {
    const served = await withTurn({ fault: 'malformed' })
    const client = new OpenAI({ baseURL: served.baseUrl, apiKey: 'placeholder', maxRetries: 0 })
    const stream = await client.responses.create({ model: 'm', input: 'hi', tools: TOOLS, stream: true })
    const failure = await (async () => {
      for await (const event of stream) void event
    })().catch((error: unknown) => error)
    expect(String(failure)).toMatch(/JSON|Unexpected token|not json/i)
  })

  it('an error event raises the vendor error in the Anthropic client', async () => {
    const served = await withTurn({ fault: { error_event: 'Overloaded' } })
    const client = new Anthropic({ baseURL: served.origin, apiKey: 'placeholder', maxRetries: 0 })
    const failure = await client.messages.stream({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }).finalMessage().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Anthropic.APIError)
    expect(String((failure as Error).message)).toContain('Overloaded')
  })

  it.each([
    [503, 'UNAVAILABLE'],
    [429, 'RESOURCE_EXHAUSTED'],
    [401, 'UNAUTHENTICATED'],
    [400, 'INVALID_ARGUMENT'],
  ] as const)('status %i reaches the Gemini client as an ApiError with the google.rpc status %s', async (status, rpc) => {
    const served = await withTurn({ fault: { status } })
    const client = new GoogleGenAI({ apiKey: 'placeholder', httpOptions: { baseUrl: served.origin } })
    const error = await client.models.generateContent({ model: 'gemini-test', contents: 'hi' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(status)
    expect(JSON.parse((error as ApiError).message)).toEqual({ error: { code: status, message: `scripted ${status}`, status: rpc } })
  })

  it.each([
    ['cut', 'cut'],
    ['malformed', 'malformed'],
    ['an error event', { error_event: 'Overloaded' }],
  ] as const)('a Gemini stream with %s fails in the Gemini client', async (_label, fault) => {
    const served = await withTurn({ fault })
    const client = new GoogleGenAI({ apiKey: 'placeholder', httpOptions: { baseUrl: served.origin } })
    const failure = await (async () => {
      const stream = await client.models.generateContentStream({ model: 'gemini-test', contents: 'hi' })
      let text = ''
      for await (const chunk of stream) text += chunk.text ?? ''
      return text
    })().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    if (typeof fault === 'object') expect(failure).toBeInstanceOf(ApiError)
    if (typeof fault === 'object') expect(String((failure as Error).message)).toContain('Overloaded')
  })

  it('a slow stream keeps its pace between frames', async () => {
    const served = await withTurn({ pace_ms: 40 })
    const started = Date.now()
    const response = await fetch(`${served.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, messages: [], tools: [{ type: 'function', function: { name: 'x' } }] }) })
    const arrivals: number[] = []
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) if (chunk.length > 0) arrivals.push(Date.now() - started)
    // Five frames (role, two text halves, finish, [DONE]) paced 40 ms apart: each its own read,
    // the last no sooner than 4 × 40 ms after the request (timers may fire a little early). Measured
    // from the request, not the first read: a busy machine may deliver the first frame late, never the last early.
    expect(arrivals).toHaveLength(5)
    expect(arrivals.at(-1) as number).toBeGreaterThanOrEqual(150)
  })

  it('ids and timestamps are deterministic across runs', async () => {
    const read = async () => {
      const served = await withTurn({ tool_calls: [{ name: 'read_file', arguments: { path: 'a' } }] })
      const text = await (await fetch(`${served.origin}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, messages: [], tools: [{ name: 'read_file' }] }) })).text()
      await served.close()
      provider = undefined
      return text
    }
    const first = await read()
    expect(first).toContain('"id":"toolu_vh_001_1"')
    expect(await read()).toBe(first)
  })

  it('refuses an invalid scenario with the JSON path', () => {
    expect(() => parseScenario({ scenario: 'x', turns: [{ tool_calls: [{ arguments: {} }] }] }, 'bad.yaml')).toThrow('bad.yaml: $.turns[0].tool_calls[0].name:')
    expect(() => loadScenario('/no/such/scenario.yaml')).toThrow(expect.objectContaining({ code: 'VH_SCENARIO_INVALID' }))
  })
})

describe('the request log', () => {
  it('writes one line per request: wire, model, stream, tool names, body digest, credential presence and length — never its value', async () => {
    const file = join(scratchDir(), 'requests.jsonl')
    provider = await startProvider({ scenario: parseScenario({ scenario: 'log', turns: [{ text: 'ok' }] }), recordRequests: file, env: {} })
    const body = JSON.stringify({ model: 'gpt-test', stream: true, input: 'hi', tools: [{ type: 'function', name: 'read_file' }, { type: 'function', name: 'grep' }] })
    await (await fetch(`${provider.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${SECRETS.bearer}` }, body })).text()
    await (await fetch(`${provider.origin}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': SECRETS.apiKey }, body: '{"model":"claude","messages":[]}' })).text()
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(SECRETS.bearer)
    expect(text).not.toContain(SECRETS.apiKey)
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines[0]).toEqual({
      seq: 1, scope: 'default', wire: 'openai-responses', method: 'POST', path: '/v1/responses', model: 'gpt-test', stream: true, tool_names: ['read_file', 'grep'],
      body_sha256: (await import('node:crypto')).createHash('sha256').update(body).digest('hex'), body_bytes: body.length,
      credential_header: 'authorization', credential_present: true, credential_length: `Bearer ${SECRETS.bearer}`.length, outcome: 'scripted', status: 200,
    })
    expect(lines[1]).toMatchObject({ wire: 'anthropic-messages', path: '/v1/messages/count_tokens', credential_header: 'x-api-key', credential_length: SECRETS.apiKey.length })
  })
})
