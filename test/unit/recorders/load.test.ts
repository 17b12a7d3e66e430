import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { frameBytes, readCassette, startProvider, type Provider } from '../../../recorders/index.js'
import { scratchDir, TWO_TURNS } from '../../helpers/provider.js'

// 200 concurrent clients × 50 streamed requests each against a replay cassette, on loopback:
// every response byte-identical to the recording, none dropped. Bounded by the test timeout.
const CLIENTS = 200
const REQUESTS_EACH = 50
// One streamed request per wire whose SSE framing differs: Anthropic's named events, Gemini's data-only chunks.
const WIRES = [
  ['anthropic-messages', '/v1/messages', JSON.stringify({ model: 'claude-test', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'read the readme' }], tools: [{ name: 'read_file', input_schema: { type: 'object' } }] })],
  ['gemini', '/v1beta/models/gemini-test:streamGenerateContent', JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'read the readme' }] }], tools: [{ functionDeclarations: [{ name: 'read_file', parameters: { type: 'object' } }] }] })],
] as const

describe.each(WIRES)('load on %s', (_wire, PATH, BODY) => {
  let provider: Provider
  let expected: Buffer

  beforeAll(async () => {
    const cassette = join(scratchDir(), 'load.cassette.jsonl')
    const recorder = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
    await (await fetch(`${recorder.origin}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY })).arrayBuffer()
    await recorder.close()
    expected = Buffer.from((readCassette(cassette).interactions[0]?.response.frames ?? []).map(frameBytes).join(''))
    provider = await startProvider({ mode: 'replay', cassette, keepRequests: CLIENTS * REQUESTS_EACH, env: {} })
  })
  afterAll(() => provider.close())

  function streamOnce(agent: Agent): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const req = request(`${provider.origin}${PATH}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) } }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => (response.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`status ${response.statusCode}`))))
        response.on('error', reject)
      })
      req.on('error', reject)
      req.end(BODY)
    })
  }

  it(`${CLIENTS} concurrent clients × ${REQUESTS_EACH} streamed requests: every response byte-identical, none dropped`, async () => {
    expect(expected.length).toBeGreaterThan(500)
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS })
    let identical = 0
    let different = 0
    const clients = Array.from({ length: CLIENTS }, async () => {
      for (let index = 0; index < REQUESTS_EACH; index++) {
        const bytes = await streamOnce(agent)
        if (bytes.equals(expected)) identical += 1
        else different += 1
      }
    })
    const results = await Promise.allSettled(clients)
    agent.destroy()
    expect(results.filter((result) => result.status === 'rejected')).toEqual([])
    expect(different).toBe(0)
    expect(identical).toBe(CLIENTS * REQUESTS_EACH)
    expect(provider.requests().filter((entry) => entry.outcome === 'replayed')).toHaveLength(CLIENTS * REQUESTS_EACH)
  }, 120_000)
})
