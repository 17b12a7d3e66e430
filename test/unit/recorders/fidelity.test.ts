import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { frameBytes, readCassette, startProvider, type CassetteFrame, type Provider } from '../../../recorders/index.js'
import { scratchDir, TWO_TURNS } from '../../helpers/provider.js'

// What goes on the wire, read from a raw socket: the HTTP chunks of a replayed stream are its
// recorded frames, one write each — or the chosen re-chunking.
const BODY = JSON.stringify({ model: 'gpt-test', stream: true, input: 'read', tools: [{ type: 'function', name: 'read_file' }] })
let provider: Provider
let cassette = ''
let frames: readonly CassetteFrame[] = []

beforeAll(async () => {
  cassette = join(scratchDir(), 'fidelity.cassette.jsonl')
  const recorder = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
  await (await fetch(`${recorder.baseUrl}/responses`, { method: 'POST', body: BODY })).text()
  await recorder.close()
  frames = readCassette(cassette).interactions[0]?.response.frames ?? []
  provider = await startProvider({ mode: 'replay', cassette, env: {} })
})
afterAll(() => provider.close())

/** The chunk payloads of a chunked HTTP/1.1 response, exactly as framed on the socket. */
function rawChunks(path: string): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(provider.port, '127.0.0.1')
    const received: Buffer[] = []
    socket.on('data', (data) => received.push(data))
    socket.on('error', reject)
    socket.on('end', () => {
      const raw = Buffer.concat(received)
      let at = raw.indexOf('\r\n\r\n') + 4
      expect(raw.subarray(0, at).toString()).toMatch(/transfer-encoding: chunked/i)
      const chunks: Buffer[] = []
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', at)
        const size = Number.parseInt(raw.subarray(at, lineEnd).toString(), 16)
        if (lineEnd === -1 || !Number.isInteger(size)) return reject(new Error(`not a chunked body at byte ${at}: ${JSON.stringify(raw.subarray(0, 400).toString())}`))
        if (size === 0) break
        chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size))
        at = lineEnd + 2 + size + 2
      }
      resolve(chunks)
    })
    // write, not end: a half-closed socket would let the server stop writing early.
    socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\nconnection: close\r\n\r\n${BODY}`)
  })
}

describe('replay fidelity on the wire', () => {
  it('writes each recorded frame as its own write (one HTTP chunk per frame), bytes exact', async () => {
    const chunks = await rawChunks('/v1/responses')
    expect(chunks.map((chunk) => chunk.toString())).toEqual(frames.map(frameBytes))
  })

  it('re-chunks at the chosen byte offsets', async () => {
    const scope = provider.openScope({ mode: 'replay', cassette, rechunk: [5, 6, 300], env: {} })
    const chunks = await rawChunks(`/__scope/${scope.id}/v1/responses`)
    const whole = Buffer.from(frames.map(frameBytes).join(''))
    expect(chunks.map((chunk) => chunk.length)).toEqual([5, 1, 294, whole.length - 300])
    expect(Buffer.concat(chunks).equals(whole)).toBe(true)
  })

  it('reproduces recorded pacing when asked', async () => {
    const paced = join(scratchDir(), 'paced.cassette.jsonl')
    const recorder = await startProvider({ mode: 'record', scenario: { ...TWO_TURNS, turns: TWO_TURNS.turns.map((turn) => ({ ...turn, paceMs: 15 })) }, cassette: paced, env: {} })
    await (await fetch(`${recorder.baseUrl}/responses`, { method: 'POST', body: BODY })).text()
    await recorder.close()
    const recordedAt = (readCassette(paced).interactions[0]?.response.frames ?? []).map((frame) => frame.atMs)
    expect(recordedAt.slice(0, 3)).toEqual([0, 15, 30])
    const scope = provider.openScope({ mode: 'replay', cassette: paced, pacing: 'recorded', env: {} })
    const started = Date.now()
    await (await fetch(`${scope.baseUrl}/responses`, { method: 'POST', body: BODY })).text()
    expect(Date.now() - started).toBeGreaterThanOrEqual((recordedAt.at(-1) as number) - 5)
    const unpaced = provider.openScope({ mode: 'replay', cassette: paced, env: {} })
    const quick = Date.now()
    await (await fetch(`${unpaced.baseUrl}/responses`, { method: 'POST', body: BODY })).text()
    expect(Date.now() - quick).toBeLessThan(recordedAt.at(-1) as number)
  })

  it('refuses to listen anywhere but loopback', async () => {
    await expect(startProvider({ host: '0.0.0.0', scenario: TWO_TURNS })).rejects.toMatchObject({ code: 'VH_NON_LOOPBACK', location: 'host' })
    await expect(startProvider({ host: '192.168.1.10', scenario: TWO_TURNS })).rejects.toThrow(/loopback only/)
  })
})
