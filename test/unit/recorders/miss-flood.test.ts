import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEEP_MISSES, startProvider } from '../../../recorders/index.js'
import { scratchDir, TWO_TURNS } from '../../helpers/provider.js'
import { spawnProvider, type ProviderChild } from '../../helpers/spawn-provider.js'

// A flood of distinct 2 MiB requests that miss the cassette, sent over HTTP to a provider in its
// own process: the misses it keeps are bounded (count and bytes), its RSS stays under 300 MB, and
// afterwards it still replays the recorded answer byte for byte. Bounded in count (MISSES) and time:
// 1 GiB of misses (each costs the provider ~50 ms of matching on one core; 2 GiB took two minutes
// on a 2-core runner, and the bound shows at either volume — the kept misses stop growing at 1,000).
const MISS_BYTES = 2 * 1024 * 1024
const MISSES = 512
/** Then small distinct misses, cheap to send, enough to push the kept window past its count. */
const SMALL_MISSES = KEEP_MISSES
const CONCURRENCY = 2
const RSS_LIMIT = 300 * 1024 * 1024
const RECORDED = JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'read the readme' }] })

let provider: ProviderChild

beforeAll(async () => {
  const cassette = join(scratchDir(), 'flood.cassette.jsonl')
  const recorder = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
  await (await fetch(`${recorder.baseUrl}/chat/completions`, { method: 'POST', body: RECORDED })).arrayBuffer()
  await recorder.close()
  provider = await spawnProvider({ mode: 'replay', cassette })
}, 60_000)
afterAll(() => provider?.close())

function post(body: Buffer | string): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${provider.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A distinct request of exactly MISS_BYTES: the recorded one's shape with a different, huge message. */
function missBody(index: number, filler: Buffer): Buffer {
  const head = Buffer.from(`{"model":"gpt-test","messages":[{"role":"user","content":"miss ${index} `)
  const tail = Buffer.from('"}]}')
  return Buffer.concat([head, filler.subarray(0, MISS_BYTES - head.length - tail.length), tail])
}

describe('a flood of distinct misses', () => {
  it(`${MISSES} distinct ${MISS_BYTES / 1024 / 1024} MiB misses: RSS under 300 MB, misses kept bounded, the replay unchanged`, async () => {
    const before = await post(RECORDED)
    expect(before.status).toBe(200)
    const filler = Buffer.alloc(MISS_BYTES, 'x')
    let sent = 0
    let next = 0
    const statuses = new Map<number, number>()
    const worker = async () => {
      while (next < MISSES) {
        const index = next++
        const body = missBody(index, filler)
        const answer = await post(body)
        sent += body.length
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    expect(sent).toBeGreaterThanOrEqual(1024 ** 3)
    // Every one is a miss, answered in the wire's shape.
    expect(Object.fromEntries(statuses)).toEqual({ 400: MISSES })
    for (let index = 0; index < SMALL_MISSES; index++) expect((await post(JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: `small ${index}` }] }))).status).toBe(400)
    const after = await post(RECORDED)
    expect(after.status).toBe(200)
    expect(after.bytes.equals(before.bytes)).toBe(true)
    const stats = await provider.stats()
    // The newest KEEP_MISSES are kept; the rest are counted, not held.
    expect(stats).toMatchObject({ missesKept: KEEP_MISSES, missesDropped: MISSES + SMALL_MISSES - KEEP_MISSES })
    expect(stats.maxRssBytes, `peak RSS ${(stats.maxRssBytes / 1024 / 1024).toFixed(0)} MB`).toBeLessThan(RSS_LIMIT)
  }, 300_000)
})
