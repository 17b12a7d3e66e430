import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseScenario, readCassette, startProvider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'

// Issue 13 item 7: bytes from a scripted upstream stay scripted. A provider answering from a
// scenario (or replaying an emulated recording) says so in `x-vitest-harness-provenance`; a
// recorder in front of it (`serve --mode record --upstream …`) writes that label into the
// cassette header instead of `vendor_live`, which only a real vendor's answers may carry.
const SCENARIO = parseScenario({ scenario: 'scripted-upstream', turns: [{ text: 'scripted answer' }] })
const ask = (baseUrl: string) => fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })

describe('provenance through a recorder', () => {
  it('a scenario’s answers carry their label, and a recorder in front keeps it', async () => {
    const scripted = await startProvider({ scenario: SCENARIO, env: {} })
    const cassette = join(scratchDir(), 'through.cassette.jsonl')
    const recorder = await startProvider({ mode: 'record', upstream: scripted.origin, cassette, env: {} })
    try {
      const direct = await ask(scripted.baseUrl)
      expect(direct.headers.get('x-vitest-harness-provenance')).toBe('provider_emulated')
      await direct.text()
      const through = await ask(recorder.baseUrl)
      expect(await through.text()).toContain('scripted answer')
      // Re-served with the label, so a second recorder in the chain keeps it too.
      expect(through.headers.get('x-vitest-harness-provenance')).toBe('provider_emulated')
    } finally {
      await recorder.close()
      await scripted.close()
    }
    const recorded = readCassette(cassette)
    expect(recorded.provenance).toBe('provider_emulated')
    expect(recorded.interactions).toHaveLength(1)
    // The label travels in a header the cassette does not store.
    expect(JSON.stringify(recorded.interactions[0]?.response.headers)).not.toContain('provenance')
  })

  it('a replayed emulated recording is re-recorded as emulated; an upstream that declares nothing stays vendor_live', async () => {
    const first = join(scratchDir(), 'first.cassette.jsonl')
    const writer = await startProvider({ mode: 'record', scenario: SCENARIO, cassette: first, env: {} })
    await (await ask(writer.baseUrl)).text()
    await writer.close()
    const replaying = await startProvider({ mode: 'replay', cassette: first, env: {} })
    const again = join(scratchDir(), 'again.cassette.jsonl')
    const recorder = await startProvider({ mode: 'record', upstream: replaying.origin, cassette: again, env: {} })
    // A bare HTTP server standing in for a vendor: it names no provenance.
    const vendorLike = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [] }))
    })
    await new Promise<void>((resolve) => vendorLike.listen(0, '127.0.0.1', resolve))
    const vendorCassette = join(scratchDir(), 'vendor.cassette.jsonl')
    const vendorRecorder = await startProvider({ mode: 'record', upstream: `http://127.0.0.1:${(vendorLike.address() as AddressInfo).port}`, cassette: vendorCassette, env: {} })
    try {
      await (await ask(recorder.baseUrl)).text()
      await (await ask(vendorRecorder.baseUrl)).text()
    } finally {
      await recorder.close()
      await replaying.close()
      await vendorRecorder.close()
      await new Promise((resolve) => vendorLike.close(resolve))
    }
    expect(readCassette(again).provenance).toBe('provider_emulated')
    expect(readCassette(vendorCassette).provenance).toBe('vendor_live')
  })
})
