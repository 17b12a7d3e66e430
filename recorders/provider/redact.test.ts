import { describe, expect, it } from 'vitest'
import { serializeCassette } from './cassette.js'
import type { JsonValue } from './json.js'
import { learnCredentials, Redactor, redactionPlaceholder, SeenCredentials } from './redact.js'

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

  it('learns credential values from headers and declared body fields, and replaces them anywhere, longest first', () => {
    const seen = new SeenCredentials()
    learnCredentials(seen, { authorization: 'Bearer tok-0123456789', cookie: 'sid=cookie-value-42; theme=dark', 'x-goog-api-key': 'goog-key-abcdef', accept: 'text/event-stream' }, 'openai-chat', { api_key: 'body-key-987654', model: 'gpt-test' })
    const redactor = new Redactor([], seen)
    expect(redactor.text('auth Bearer tok-0123456789 / tok-0123456789')).toBe(`auth ${redactionPlaceholder(21)} / ${redactionPlaceholder(14)}`)
    expect(redactor.text('cookie-value-42 goog-key-abcdef body-key-987654')).not.toMatch(/cookie-value|goog-key|body-key/)
    // Not credentials: other headers, other body fields, and values too short to redact as text.
    expect(redactor.text('text/event-stream gpt-test dark')).toBe('text/event-stream gpt-test dark')
    const other = new Redactor([], seen)
    expect(other.json({ echo: 'tok-0123456789' })).toEqual({ echo: redactionPlaceholder(14) })
  })

  it('refuses a new credential past its budget rather than forgetting one', () => {
    const seen = new SeenCredentials()
    for (let index = 0; index < 4096; index++) seen.learn(`credential-${String(index).padStart(6, '0')}`)
    expect(() => seen.learn('one-credential-too-many')).toThrow(expect.objectContaining({ code: 'VH_CREDENTIALS_OVERFLOW' }))
    expect(() => seen.learn('credential-000001')).not.toThrow()
    expect(new Redactor([], seen).text('credential-000000')).toBe(redactionPlaceholder(17))
  })

  it('redacts a body nested 100k levels deep without overflowing the stack, and keeps its shape', () => {
    const depth = 100_000
    let body: JsonValue = { key: 'sk-ant-0123456789abcdefXYZ', n: 1 }
    // An own `__proto__` key, as JSON.parse makes one: it must survive as data, never become a prototype.
    const withProto = (inner: JsonValue): JsonValue => Object.defineProperty({ inner }, '__proto__', { value: 'x', enumerable: true, writable: true, configurable: true })
    for (let level = 0; level < depth; level++) body = level % 2 === 0 ? [body, 'plain'] : withProto(body)
    let out = new Redactor().json(body)
    let levels = 0
    let misshapen = 0
    for (;;) {
      if (Array.isArray(out)) {
        if (out[1] !== 'plain') misshapen += 1
        out = out[0] as JsonValue
      } else if (out !== null && typeof out === 'object' && 'inner' in out) {
        if (Object.getOwnPropertyDescriptor(out, '__proto__')?.value !== 'x' || Object.getPrototypeOf(out) !== Object.prototype) misshapen += 1
        out = out.inner as JsonValue
      } else break
      levels += 1
    }
    expect({ levels, misshapen }).toEqual({ levels: depth, misshapen: 0 })
    expect(out).toEqual({ key: redactionPlaceholder('sk-ant-0123456789abcdefXYZ'.length), n: 1 })
  })
})
