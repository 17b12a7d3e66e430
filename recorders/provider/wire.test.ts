import { describe, expect, it } from 'vitest'
import type { JsonValue } from './json.js'
import { errorBody, routeOf, summarizeRequest, wireForPath } from './wire.js'

describe('the Gemini wire', () => {
  it.each([
    ['/v1beta/models/gemini-2.5-flash:generateContent', 'generate', 'gemini-2.5-flash'],
    ['/v1beta/models/gemini-2.5-flash:streamGenerateContent', 'stream_generate', 'gemini-2.5-flash'],
    ['/v1beta/models/gemini-3.1-pro-preview:countTokens', 'count_tokens', 'gemini-3.1-pro-preview'],
    ['/v1/models/gemini-2.5-pro:generateContent', 'generate', 'gemini-2.5-pro'],
    ['/v1alpha/models/m%2Fx:generateContent', 'generate', 'm/x'],
  ] as const)('routes POST %s to %s, the model from the path', (path, endpoint, model) => {
    expect(routeOf('POST', path)).toEqual({ wire: 'gemini', endpoint, model })
  })

  it('routes nothing else: another method, an unknown method name, a path beyond the model', () => {
    expect(routeOf('GET', '/v1beta/models/gemini-2.5-flash:generateContent')).toBeUndefined()
    expect(routeOf('POST', '/v1beta/models/gemini-2.5-flash:embedContent')).toBeUndefined()
    expect(routeOf('POST', '/v1beta/models/a/b:generateContent')).toBeUndefined()
    expect(routeOf('POST', '/v1beta/models')).toBeUndefined()
  })

  it('answers unrouted Google paths in Google’s error shape, and the others as before', () => {
    expect(wireForPath('/v1beta/models')).toBe('gemini')
    expect(wireForPath('/v1/models/x:embedContent')).toBe('gemini')
    expect(wireForPath('/v1/models')).toBe('openai-responses')
    expect(wireForPath('/v1/messages/batches')).toBe('anthropic-messages')
    expect(JSON.parse(errorBody('gemini', 'rate_limit', 'slow down'))).toEqual({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } })
    expect(JSON.parse(errorBody('gemini', 'cassette_miss', 'miss', 400))).toEqual({ error: { code: 400, message: 'miss', status: 'INVALID_ARGUMENT' } })
  })

  it('summarises a request from its path and its functionDeclarations', () => {
    const route = routeOf('POST', '/v1beta/models/gemini-2.5-flash:streamGenerateContent')
    const body: JsonValue = { contents: [], tools: [{ functionDeclarations: [{ name: 'read_file' }, { name: 'glob' }] }, { googleSearch: {} }] }
    expect(summarizeRequest(body, route)).toEqual({ model: 'gemini-2.5-flash', stream: true, tools: ['read_file', 'glob', 'googleSearch'] })
  })
})
