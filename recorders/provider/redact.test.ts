import { describe, expect, it } from 'vitest'
import { serializeCassette } from './cassette.js'
import { Redactor, redactionPlaceholder } from './redact.js'

describe('redaction', () => {
  it('keeps presence and length', () => {
    for (const length of [0, 3, 9, 10, 11, 64]) expect(redactionPlaceholder(length)).toHaveLength(length)
    expect(redactionPlaceholder(16)).toBe('[REDACTED******]')
  })

  it('redacts credential headers, default key shapes and configured patterns on the cassette write path', () => {
    const text = serializeCassette(
      {
        wire: 'openai-chat',
        provenance: 'synthetic',
        tool: 'vitest-harness 0',
        interactions: [
          {
            wire: 'openai-chat',
            request: { method: 'POST', path: '/v1/chat/completions', headers: { authorization: 'Bearer abc', 'api-key': 'k', cookie: 'a=b', 'content-type': 'application/json' }, body: { messages: [{ content: 'my key is sk-proj-abcdefghijklmnopqrstuvwx and corp-42' }] } },
            response: { status: 200, headers: { 'set-cookie': 'sid=1' }, frames: [{ event: null, dataText: 'echo corp-42' }] },
          },
        ],
      },
      new Redactor([/corp-\d+/]),
    )
    expect(text).not.toMatch(/Bearer abc|sk-proj-abc|corp-42|sid=1|a=b/)
    expect(text).toContain('"authorization":"[REDACTED]"')
    expect(text).toContain('"api-key":"*"')
    expect(text).toContain('"content-type":"application/json"')
    expect(text).toContain('echo *******')
  })
})
