import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type Provider } from '../../../recorders/index.js'
import { requestsFromChild } from '../../helpers/http-from-child.js'
import { scratchDir } from '../../helpers/provider.js'

// The model-wire routes record into cassettes and relay to upstreams, so a web page must not reach
// them either: one that rebound its DNS name to 127.0.0.1 sends a foreign Host, one on another
// local port sends its Origin. Both are refused before the body is read; the harness's own
// requests (loopback Host, no Origin) are answered.
let provider: Provider
let cassette: string

beforeAll(async () => {
  const dir = scratchDir()
  cassette = join(dir, 'recorded.cassette.jsonl')
  const scenario = join(dir, 'turn.yaml')
  const { writeFileSync } = await import('node:fs')
  writeFileSync(scenario, 'scenario: guard\nturns:\n  - text: "answered"\n')
  provider = await startProvider({ mode: 'record', cassette, scenario, env: {} })
})

afterAll(async () => {
  await provider.close()
})

describe('the model-wire routes', () => {
  it('refuse a foreign Host and a foreign Origin from another process, and record nothing of them', async () => {
    const port = new URL(provider.origin).port
    const url = `${provider.origin}/v1/chat/completions`
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'from a page' }] })
    const answers = await requestsFromChild([
      { url, method: 'POST', headers: { host: `attacker.example:${port}`, 'content-type': 'text/plain' }, body },
      { url, method: 'POST', headers: { host: `127.0.0.1:${port}`, origin: 'http://localhost:3000', 'content-type': 'text/plain' }, body },
      { url, method: 'POST', headers: { host: `127.0.0.1:${port}`, origin: 'null', 'content-type': 'text/plain' }, body },
    ])
    expect(answers.map((answer) => [answer.status, (JSON.parse(answer.body) as { error: { code: string } }).error.code])).toEqual([
      [403, 'VH_CONTROL_HOST'],
      [403, 'VH_CONTROL_ORIGIN'],
      [403, 'VH_CONTROL_ORIGIN'],
    ])
    expect(existsSync(cassette) && readFileSync(cassette, 'utf8').includes('from a page')).toBe(false)
  })

  it('answer the harness itself: a loopback Host, no Origin (or the provider’s own)', async () => {
    const port = new URL(provider.origin).port
    const url = `${provider.origin}/v1/chat/completions`
    const body = (text: string) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: text }] })
    const answers = await requestsFromChild([
      { url, method: 'POST', headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' }, body: body('harness one') },
      { url, method: 'POST', headers: { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'content-type': 'application/json' }, body: body('harness two') },
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
  })
})
