import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCassette, redactionPlaceholder, startProvider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'
import { SECRETS } from '../../helpers/secrets.js'

// A fake vendor on 127.0.0.1 whose bytes are deliberately irregular: Python-style separators, a
// comment, a multi-line data field, CRLF, non-ASCII, and writes that cut frames anywhere.
const STREAM = [
  'event: message_start\ndata: {"type": "message_start", "message": {"id": "msg_1", "content": []}}\n\n',
  ': keep-alive comment\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"h\\u00e9llo ✓"}}\n\n',
  'data: line one\ndata: line two\n\n',
  'event: ping\r\ndata: {"type":"ping"}\r\n\r\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('')
const JSON_BODY = '{ "id": "resp_1",  "object": "response", "value": 1.0, "text": "caf\\u00e9" }'

let upstream: Server
let upstreamUrl = ''
const seenAuthorization: (string | undefined)[] = []
const seenUrls: string[] = []
const GEMINI_FRAME = 'data: {"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"}}]}\r\n\r\n'

beforeAll(async () => {
  upstream = createServer((request, response) => {
    seenUrls.push(request.url ?? '')
    if (!request.url?.startsWith('/v1beta/')) seenAuthorization.push(request.headers['authorization'] ?? request.headers['x-api-key']?.toString())
    request.resume()
    request.on('end', () => {
      if (request.url?.startsWith('/v1beta/')) {
        // As Gemini does: a stream only when the query asks for one, else one JSON array.
        const streamed = new URL(request.url, 'http://x').searchParams.get('alt') === 'sse'
        // It echoes the query's key back, as error pages and request ids sometimes do.
        const key = new URL(request.url, 'http://x').searchParams.get('key') ?? ''
        response.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json', 'x-request-id': `req-${key}` })
        response.end(streamed ? GEMINI_FRAME : '[]')
      } else if (request.url === '/v1/messages') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'x-secret-echo': SECRETS.apiKey, 'request-id': 'req_up_1' })
        const bytes = Buffer.from(STREAM)
        // Odd cut points, each its own write.
        let at = 0
        for (const size of [7, 50, 1, 90, 3, 400]) {
          response.write(bytes.subarray(at, at + size))
          at += size
        }
        response.end(bytes.subarray(at))
      } else if (request.url === '/v1/chat/completions') {
        // An upstream that compresses although asked for identity.
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        response.end(gzipSync(JSON_BODY))
      } else {
        response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_up_2' })
        response.end(JSON_BODY)
      }
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())))

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; bytes: Buffer; contentType: string | null }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') }
}

describe('record → replay through a local fake upstream', () => {
  it('reproduces the response bytes exactly, streamed and whole', async () => {
    const cassette = join(scratchDir(), 'round-trip.cassette.jsonl')
    const streamBody = { model: 'claude-test', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }
    const jsonBody = { model: 'gpt-test', input: 'hi' }
    const recorder = await startProvider({ mode: 'record', upstream: upstreamUrl, cassette, provenance: 'synthetic', env: {} })
    const liveStream = await post(`${recorder.origin}/v1/messages`, streamBody, { 'x-api-key': SECRETS.apiKey })
    const liveJson = await post(`${recorder.baseUrl}/responses`, jsonBody, { authorization: `Bearer ${SECRETS.bearer}` })
    await recorder.close()
    expect(liveStream.bytes.toString()).toBe(STREAM)
    expect(liveJson.bytes.toString()).toBe(JSON_BODY)
    // The upstream got the real credentials; the cassette did not.
    expect(seenAuthorization).toEqual([SECRETS.apiKey, `Bearer ${SECRETS.bearer}`])
    const text = readFileSync(cassette, 'utf8')
    expect(text).not.toContain(SECRETS.apiKey)
    expect(text).not.toContain(SECRETS.bearer)

    const replayer = await startProvider({ mode: 'replay', cassette, env: {} })
    const replayedStream = await post(`${replayer.origin}/v1/messages`, streamBody, { 'x-api-key': 'another-key' })
    const replayedJson = await post(`${replayer.baseUrl}/responses`, jsonBody, {})
    await replayer.close()
    expect(replayedStream.bytes.equals(liveStream.bytes)).toBe(true)
    expect(replayedJson.bytes.equals(liveJson.bytes)).toBe(true)
    expect(replayedStream.contentType).toBe('text/event-stream')
    expect(replayer.requests().map((entry) => entry.outcome)).toEqual(['replayed', 'replayed'])
  })

  it('forwards the query the client sent, and records and matches without it', async () => {
    const cassette = join(scratchDir(), 'gemini-query.cassette.jsonl')
    const path = '/v1beta/models/gemini-test:streamGenerateContent'
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }
    const recorder = await startProvider({ mode: 'record', upstream: upstreamUrl, cassette, provenance: 'synthetic', env: {} })
    // A key no default pattern knows: only learning it from the query keeps it off disk.
    const live = await post(`${recorder.origin}${path}?alt=sse&key=${SECRETS.echoedKey}`, body, {})
    // Routed and logged by the path alone: the query went no further than the upstream.
    expect(recorder.requests().map((entry) => [entry.wire, entry.path, entry.outcome])).toEqual([['gemini', path, 'recorded']])
    await recorder.close()
    expect(seenUrls.at(-1)).toBe(`${path}?alt=sse&key=${SECRETS.echoedKey}`)
    expect(live.contentType).toBe('text/event-stream')
    expect(live.bytes.toString()).toBe(GEMINI_FRAME)
    const text = readFileSync(cassette, 'utf8')
    expect(text).toContain(`req-${redactionPlaceholder(SECRETS.echoedKey.length)}`)
    expect(text).not.toContain(SECRETS.echoedKey)
    expect(readCassette(cassette).interactions.map((interaction) => interaction.request.path)).toEqual([path])
    const replayer = await startProvider({ mode: 'replay', cassette, env: {} })
    const replayed = await post(`${replayer.origin}${path}?alt=sse`, body, {})
    expect(replayer.requests().map((entry) => [entry.path, entry.outcome])).toEqual([[path, 'replayed']])
    await replayer.close()
    expect(replayed.bytes.equals(live.bytes)).toBe(true)
  })

  it('stores and replays a compressed upstream answer decoded', async () => {
    const cassette = join(scratchDir(), 'gzip.cassette.jsonl')
    const recorder = await startProvider({ mode: 'record', upstream: upstreamUrl, cassette, provenance: 'synthetic', env: {} })
    const live = await post(`${recorder.baseUrl}/chat/completions`, { model: 'm', messages: [] }, {})
    await recorder.close()
    expect(live.bytes.toString()).toBe(JSON_BODY)
    expect(readFileSync(cassette, 'utf8')).toContain(JSON.stringify({ body_text: JSON_BODY }))
    const replayer = await startProvider({ mode: 'replay', cassette, env: {} })
    expect((await post(`${replayer.baseUrl}/chat/completions`, { model: 'm', messages: [] }, {})).bytes.toString()).toBe(JSON_BODY)
    await replayer.close()
  })

  it('stores the interaction readably: decoded bodies, one frame per line with its event name', () => {
    const cassette = join(scratchDir(), 'readable.cassette.jsonl')
    return (async () => {
      const recorder = await startProvider({ mode: 'record', upstream: upstreamUrl, cassette, provenance: 'synthetic', env: {} })
      await post(`${recorder.origin}/v1/messages`, { model: 'm', stream: true, messages: [] }, { 'x-api-key': SECRETS.apiKey })
      await recorder.close()
      const lines = readFileSync(cassette, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(lines[0]).toEqual({ cassette: 'vitest-harness.cassette/2', provenance: 'synthetic', tool: expect.stringMatching(/^vitest-harness \d/) })
      expect(lines[1]).toMatchObject({ interaction: 1, wire: 'anthropic-messages', method: 'POST', path: '/v1/messages', headers: { 'x-api-key': redactionPlaceholder(SECRETS.apiKey.length) } })
      expect(lines[2]).toEqual({ request: { model: 'm', stream: true, messages: [] } })
      expect(lines[3]).toMatchObject({ response: 200, headers: { 'content-type': 'text/event-stream', 'request-id': 'req_up_1' } })
      const frames = lines.slice(4, -2)
      expect(lines.slice(-2)).toEqual([{ end: 1 }, { complete: 1 }])
      expect(frames.map((frame) => frame['frame'])).toEqual(['message_start', null, 'content_block_delta', null, 'ping', 'message_stop'])
      // Readable when the canonical encoding reproduces the bytes; raw when it cannot.
      expect(frames[0]).toHaveProperty('data_text')
      expect(frames[1]).toHaveProperty('raw', ': keep-alive comment\n\n')
      expect(frames[3]).toHaveProperty('data_text', 'line one\nline two')
      expect(frames[4]).toHaveProperty('raw')
      expect(frames[5]).toHaveProperty('data', { type: 'message_stop' })
      expect(readCassette(cassette).interactions).toHaveLength(1)
    })()
  })
})
