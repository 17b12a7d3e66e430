import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bodyBuffer, frameBuffer, parseCassette, readCassette, redactionPlaceholder, serializeCassette, startProvider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'

// An upstream may send bytes that are not UTF-8 (a broken proxy, a binary error page, a stream cut
// inside a code point). The cassette keeps them as base64 and replays them exactly as recorded,
// never as U+FFFD.
const KEY = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX'
const BAD = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82])
const FRAMES = [
  Buffer.concat([Buffer.from('data: {"text":"'), BAD, Buffer.from('"}\n\n')]),
  Buffer.from('data: {"text":"caf\u00e9 \u2713"}\n\n'),
  Buffer.concat([Buffer.from('event: odd\ndata: '), Buffer.from([0x80, 0x81]), Buffer.from('\n\n')]),
  Buffer.from('data: [DONE]\n\n'),
]
const STREAM = Buffer.concat(FRAMES)
const WHOLE = Buffer.concat([Buffer.from('binary error: '), BAD, Buffer.from([0x00, 0x0a, 0xa0])])
const ECHO = Buffer.concat([Buffer.from(`key ${KEY} then `), BAD])

let upstream: Server
let upstreamUrl = ''

beforeAll(async () => {
  upstream = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString()))
    request.on('end', () => {
      const { stream, echo } = JSON.parse(text) as { stream?: boolean; echo?: boolean }
      if (echo) {
        response.writeHead(400, { 'content-type': 'text/plain' })
        return response.end(ECHO)
      }
      if (!stream) {
        response.writeHead(500, { 'content-type': 'application/octet-stream' })
        return response.end(WHOLE)
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      // Split inside the bad bytes, so no chunk boundary lines up with a frame.
      response.write(STREAM.subarray(0, 17))
      response.write(STREAM.subarray(17, 40))
      response.end(STREAM.subarray(40))
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())))

async function post(baseUrl: string, body: unknown): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }
}

describe('bytes that are not UTF-8', () => {
  it('are recorded losslessly and replayed byte for byte, streamed and whole', async () => {
    const cassette = join(scratchDir(), 'bytes.cassette.jsonl')
    const recorder = await startProvider({ mode: 'record', upstream: upstreamUrl, cassette, env: {} })
    const live = await post(recorder.baseUrl, { model: 'm', stream: true, messages: [] })
    const liveWhole = await post(recorder.baseUrl, { model: 'm', messages: [] })
    await recorder.close()
    expect(live.bytes.equals(STREAM)).toBe(true)
    expect(liveWhole.bytes.equals(WHOLE)).toBe(true)

    const stored = readCassette(cassette)
    const frames = stored.interactions[0]?.response.frames ?? []
    expect(frames.map(frameBuffer)).toEqual(FRAMES)
    // Kept as bytes only where they are not UTF-8; the rest stays readable.
    expect(frames.map((frame) => frame.rawBytes !== undefined)).toEqual([true, false, true, false])
    expect(frames[2]?.event).toBe('odd')
    expect(bodyBuffer(stored.interactions[1]?.response ?? { status: 0, headers: {} }).equals(WHOLE)).toBe(true)
    const text = readFileSync(cassette, 'utf8')
    expect(text).toContain(`"raw_base64":"${FRAMES[0]?.toString('base64')}"`)
    expect(text).toContain(`{"body_base64":"${WHOLE.toString('base64')}"}`)
    expect(text).not.toContain('\ufffd')

    const replayer = await startProvider({ mode: 'replay', cassette, env: {} })
    const replayed = await post(replayer.baseUrl, { model: 'm', stream: true, messages: [] })
    const replayedWhole = await post(replayer.baseUrl, { model: 'm', messages: [] })
    await replayer.close()
    expect(replayed.bytes.equals(STREAM)).toBe(true)
    expect(replayedWhole.status).toBe(500)
    expect(replayedWhole.bytes.equals(WHOLE)).toBe(true)
  })

  it('pass the redactor: a key inside them is replaced, the other bytes are kept', async () => {
    const cassette = join(scratchDir(), 'echo.cassette.jsonl')
    const recorder = await startProvider({ mode: 'record', upstream: upstreamUrl, cassette, env: {} })
    expect((await post(recorder.baseUrl, { model: 'm', echo: true, messages: [] })).bytes.equals(ECHO)).toBe(true)
    await recorder.close()
    const stored = bodyBuffer(readCassette(cassette).interactions[0]?.response ?? { status: 0, headers: {} })
    expect(stored.equals(Buffer.concat([Buffer.from(`key ${redactionPlaceholder(KEY.length)} then `), BAD]))).toBe(true)
    expect(readFileSync(cassette, 'latin1')).not.toContain(KEY)
  })

  it('round-trip through the cassette text for any bytes', () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index))
    const text = serializeCassette({
      provenance: 'synthetic',
      tool: 't',
      interactions: [
        { wire: 'openai-chat', request: { method: 'POST', path: '/v1/chat/completions', headers: {} }, response: { status: 200, headers: {}, frames: [{ event: null, rawBytes: Buffer.concat([bytes, Buffer.from('\n\n')]) }] } },
        { wire: 'openai-chat', request: { method: 'POST', path: '/v1/chat/completions', headers: {} }, response: { status: 200, headers: {}, bodyRaw: bytes } },
      ],
    })
    const [first, second] = parseCassette(text).interactions
    expect(frameBuffer(first?.response.frames?.[0] ?? { event: null }).equals(Buffer.concat([bytes, Buffer.from('\n\n')]))).toBe(true)
    expect(bodyBuffer(second?.response ?? { status: 0, headers: {} }).equals(bytes)).toBe(true)
  })
})
