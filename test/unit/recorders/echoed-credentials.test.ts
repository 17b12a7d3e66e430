import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redactionPlaceholder, startProvider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'
import { findSecrets, filesUnder } from '../../helpers/secret-scan.global.js'
import { SECRETS } from '../../helpers/secrets.js'

// A fake vendor on 127.0.0.1 that echoes whatever credential it was sent: in a kept response
// header (x-request-id, request-id), in an SSE frame, in an error body. The keys have shapes no
// default pattern knows, so only the provider learning them from the request keeps them off disk.
let upstream: Server
let upstreamUrl = ''

function credentialOf(headers: Record<string, string | string[] | undefined>, body: string): string {
  const bearer = String(headers['authorization'] ?? '').replace(/^Bearer /, '')
  const fromBody = (() => {
    try {
      return String((JSON.parse(body) as { api_key?: string }).api_key ?? '')
    } catch {
      return ''
    }
  })()
  return bearer || String(headers['x-api-key'] ?? '') || String(headers['x-goog-api-key'] ?? '') || fromBody
}

beforeAll(async () => {
  upstream = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const key = credentialOf(request.headers, body)
      if (request.url === '/v1/messages') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': key, 'request-id': `req_${key}` })
        response.write(`event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","echo":"${key}"}}\n\n`)
        response.end(`event: message_stop\ndata: {"type":"message_stop","note":"key ${key} accepted"}\n\n`)
      } else if (request.url === '/v1/responses') {
        response.writeHead(401, { 'content-type': 'application/json', 'x-request-id': `req-${key}-1` })
        response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}. You can find your API key at …`, type: 'invalid_request_error', code: 'invalid_api_key' } }))
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' })
        response.end(`plain echo ${key}`)
      }
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())))

describe('credentials an upstream echoes', () => {
  it('never reach the cassette, the request log, or any other file the provider wrote', async () => {
    const dir = scratchDir('vh-echo-')
    const cassette = join(dir, 'echo.cassette.jsonl')
    const log = join(dir, 'requests.jsonl')
    const recorder = await startProvider({ mode: 'record', upstream: upstreamUrl, cassette, recordRequests: log, provenance: 'synthetic', env: {} })
    const send = async (path: string, headers: Record<string, string>, body: unknown) => {
      const response = await fetch(`${recorder.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      return { status: response.status, text: await response.text() }
    }
    const stream = await send('/v1/messages', { 'x-api-key': SECRETS.echoedKey }, { model: 'claude-test', stream: true, max_tokens: 8, messages: [] })
    const error = await send('/v1/responses', { authorization: `Bearer ${SECRETS.echoedBearer}` }, { model: 'gpt-test', input: 'hi' })
    const goog = await send('/v1/chat/completions', { 'x-goog-api-key': SECRETS.googKey }, { model: 'gemini-test', messages: [] })
    const inBody = await send('/v1/chat/completions', {}, { model: 'gateway-test', api_key: SECRETS.bodyKey, messages: [] })
    await recorder.close()

    // The client saw the upstream's answers as sent (echo included): redaction is for disk only.
    expect(stream.text).toContain(SECRETS.echoedKey)
    expect(error.status).toBe(401)
    expect(error.text).toContain(SECRETS.echoedBearer)
    expect(goog.text).toBe(`plain echo ${SECRETS.googKey}`)
    expect(inBody.text).toBe(`plain echo ${SECRETS.bodyKey}`)

    // On disk: no credential anywhere, each echo replaced by a placeholder of its length.
    expect(filesUnder(dir).sort()).toEqual([cassette, log].sort())
    expect(findSecrets(dir)).toEqual([])
    const text = readFileSync(cassette, 'utf8')
    const placeholder = (secret: string) => redactionPlaceholder(secret.length)
    expect(text).toContain(`"x-request-id":"${placeholder(SECRETS.echoedKey)}"`)
    expect(text).toContain(`"request-id":"req_${placeholder(SECRETS.echoedKey)}"`)
    expect(text).toContain(`"echo":"${placeholder(SECRETS.echoedKey)}"`)
    expect(text).toContain(`key ${placeholder(SECRETS.echoedKey)} accepted`)
    expect(text).toContain(`Incorrect API key provided: ${placeholder(SECRETS.echoedBearer)}.`)
    expect(text).toContain(`"x-request-id":"req-${placeholder(SECRETS.echoedBearer)}-1"`)
    expect(text).toContain(`plain echo ${placeholder(SECRETS.googKey)}`)
    expect(text).toContain(`"api_key":"${placeholder(SECRETS.bodyKey)}"`)
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => [line['credential_header'], line['credential_present'], line['credential_length']])).toEqual([
      ['x-api-key', true, SECRETS.echoedKey.length],
      ['authorization', true, `Bearer ${SECRETS.echoedBearer}`.length],
      ['x-goog-api-key', true, SECRETS.googKey.length],
      [null, false, 0],
    ])
  })

  it('a credential seen in one scope is redacted in every other scope of the provider', async () => {
    const dir = scratchDir('vh-echo-')
    const provider = await startProvider({ env: {} })
    const first = provider.openScope({ mode: 'record', upstream: upstreamUrl, cassette: join(dir, 'first.cassette.jsonl'), env: {} })
    const second = provider.openScope({ mode: 'record', upstream: upstreamUrl, cassette: join(dir, 'second.cassette.jsonl'), env: {} })
    await (await fetch(`${first.origin}/v1/messages`, { method: 'POST', headers: { 'x-api-key': SECRETS.echoedKey }, body: '{"model":"m","stream":true,"messages":[]}' })).text()
    // The second scope's request carries no key, but its body quotes the one the first scope saw.
    await (await fetch(`${second.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: `my key is ${SECRETS.echoedKey}` }] }) })).text()
    provider.closeScope(first.id)
    provider.closeScope(second.id)
    await provider.close()
    expect(findSecrets(dir)).toEqual([])
    expect(readFileSync(join(dir, 'second.cassette.jsonl'), 'utf8')).toContain(`my key is ${redactionPlaceholder(SECRETS.echoedKey.length)}`)
  })

  it('a 413 log line says whether a credential was sent, and never its value', async () => {
    const dir = scratchDir('vh-echo-')
    const log = join(dir, 'requests.jsonl')
    const provider = await startProvider({ scenario: { scenario: 'small', turns: [{ text: 'ok' }] } as never, maxBodyBytes: 64, recordRequests: log, env: {} })
    const refused = await fetch(`${provider.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${SECRETS.echoedBearer}` }, body: JSON.stringify({ model: 'm', input: 'x'.repeat(200) }) })
    expect(refused.status).toBe(413)
    await provider.close()
    const [line] = readFileSync(log, 'utf8').trimEnd().split('\n').map((entry) => JSON.parse(entry) as Record<string, unknown>)
    expect(line).toMatchObject({ status: 413, outcome: 'refused', credential_header: 'authorization', credential_present: true, credential_length: `Bearer ${SECRETS.echoedBearer}`.length })
    expect(findSecrets(dir)).toEqual([])
  })
})
