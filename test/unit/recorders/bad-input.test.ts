import OpenAI from 'openai'
import { request } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseScenario, readCassette, RecorderError, startProvider, type Provider } from '../../../recorders/index.js'
import { scratchDir, TWO_TURNS } from '../../helpers/provider.js'

// Each bad input gets a clear answer in the wire's error shape, and the server keeps serving.

let provider: Provider
let cassette = ''
const GOOD = { model: 'gpt-test', input: [{ role: 'user', content: 'hello' }], tools: [{ type: 'function', name: 'read_file', parameters: {} }], stream: false }

beforeAll(async () => {
  cassette = join(scratchDir(), 'good.cassette.jsonl')
  const recorder = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
  await fetch(`${recorder.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(GOOD) })
  await recorder.close()
  provider = await startProvider({ mode: 'replay', cassette, env: {} })
})
afterAll(() => provider.close())

async function stillServes(): Promise<void> {
  const response = await fetch(`${provider.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(GOOD) })
  expect(response.status).toBe(200)
  expect(((await response.json()) as { status: string }).status).toBe('completed')
}

describe('bad input', () => {
  it('a malformed request body → 400 in the wire shape, not retried', async () => {
    const response = await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": "x",' })
    expect(response.status).toBe(400)
    expect(response.headers.get('x-should-retry')).toBe('false')
    expect(await response.json()).toEqual({ error: { message: 'the request body is not a JSON object (malformed JSON)', type: 'invalid_request_error', param: null, code: null } })
    await stillServes()
  })

  it('an unknown path → 404 in the OpenAI shape, or the Anthropic shape under /v1/messages', async () => {
    const openai = await fetch(`${provider.baseUrl}/embeddings`, { method: 'POST', body: '{}' })
    expect(openai.status).toBe(404)
    expect(await openai.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'not_found', message: expect.stringContaining('unknown path: POST /v1/embeddings') } })
    const anthropic = await fetch(`${provider.origin}/v1/messages/batches`, { method: 'POST', body: '{}' })
    expect(anthropic.status).toBe(404)
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    await stillServes()
  })

  it('a body over 4 MiB → 413', async () => {
    const big = JSON.stringify({ model: 'x', input: 'a'.repeat(4 * 1024 * 1024 + 10) })
    const response = await fetch(`${provider.origin}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large', message: 'the request body is over 4194304 bytes' } })
    expect(provider.requests().at(-1)).toMatchObject({ status: 413, outcome: 'refused' })
    await stillServes()
  })

  it('a client that disconnects mid-stream is not an error, and the next client is served', async () => {
    const slow = await startProvider({ scenario: parseScenario({ scenario: 'slow', turns: [{ text: 'a slow answer', pace_ms: 200 }] }), env: {} })
    const errors: unknown[] = []
    process.on('uncaughtException', (error) => errors.push(error))
    await new Promise<void>((resolve, reject) => {
      const req = request(`${slow.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
        response.once('data', () => {
          req.destroy()
          resolve()
        })
      })
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)))
      req.end(JSON.stringify({ model: 'm', input: 'hi', stream: true }))
    })
    await new Promise((resolve) => setTimeout(resolve, 500))
    const next = await fetch(`${slow.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', input: 'hi' }) })
    expect(next.status).toBe(200)
    expect(errors).toEqual([])
    await slow.close()
  })

  it('a corrupt cassette line → VH_CASSETTE_CORRUPT naming the file and the line', async () => {
    const lines = (await import('node:fs')).readFileSync(cassette, 'utf8').split('\n')
    lines[3] = '{"response": "two hundred"'
    const broken = join(scratchDir(), 'broken.cassette.jsonl')
    writeFileSync(broken, lines.join('\n'))
    const refusal = await startProvider({ mode: 'replay', cassette: broken, env: {} }).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(RecorderError)
    expect(refusal).toMatchObject({ code: 'VH_CASSETTE_CORRUPT', location: `${broken}:4` })
    expect((refusal as Error).message).toBe(`${broken}:4: not JSON`)
    lines[3] = '{"response": "two hundred", "headers": {}}'
    writeFileSync(broken, lines.join('\n'))
    expect(() => readCassette(broken)).toThrow(`${broken}:4: not a valid response line at response`)
    // A scope opened on the broken cassette is refused; the server keeps serving the others.
    expect(() => provider.openScope({ mode: 'replay', cassette: broken, env: {} })).toThrow(/:4: /)
    await stillServes()
  })

  it('scope options sent to the control endpoint are checked', async () => {
    const owner = { 'content-type': 'application/json', authorization: `Bearer ${provider.controlToken}` }
    const refused = await fetch(`${provider.origin}/__vitest-harness/scopes`, { method: 'POST', headers: owner, body: JSON.stringify({ mode: 'wild', env: { CI: '' } }) })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ code: 'VH_OPTION_INVALID', error: expect.stringMatching(/^scope option mode: /) })
    const notJson = await fetch(`${provider.origin}/__vitest-harness/scopes`, { method: 'POST', headers: owner, body: '{' })
    expect(await notJson.json()).toMatchObject({ code: 'VH_OPTION_INVALID', error: 'the scope options are not JSON' })
    await stillServes()
  })

  it('an unmatched request → 400 with x-should-retry: false, the miss recorded, naming the nearest request and the JSON path', async () => {
    const client = new OpenAI({ baseURL: provider.baseUrl, apiKey: 'placeholder' })
    const before = provider.requests().length
    const failure = await client.responses.create({ ...GOOD, input: [{ role: 'user', content: 'hello there' }] } as never).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError)
    // The SDK's default retries (2) did not fire: exactly one request arrived.
    expect(provider.requests().length).toBe(before + 1)
    const miss = provider.misses().at(-1)
    expect(miss).toMatchObject({ nearest: 1, differsAt: '$.input[0].content', recordedValue: 'hello', receivedValue: 'hello there' })
    expect((failure as Error).message).toContain('the nearest recorded request is interaction 1, which differs at $.input[0].content: recorded "hello", received "hello there"')
    expect(provider.requests().at(-1)).toMatchObject({ outcome: 'miss', status: 400, nearest: 1, differsAt: '$.input[0].content' })
    await stillServes()
  })
})
