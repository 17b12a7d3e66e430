import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bodyBuffer, frameBuffer, frameBytes, parseCassette, serializeCassette, splitSseFrames, type Interaction } from '../../recorders/index.js'
import { bodyFromBuffer, frameFromBytes, frameFromRaw } from '../../recorders/provider/cassette.js'

// Byte-exactness as a property: any stream text, cut into frames and stored, comes back as the
// same bytes — through the cassette's own text, too.
const line = fc.string({ unit: fc.constantFrom('a', 'é', '✓', '🚀', ' ', ':', '{', '}', '"', '\\', 'data', 'event', '\r', '[DONE]') })
const field = fc.tuple(fc.constantFrom('event', 'data', 'id', 'retry', ': comment', 'data:'), fc.constantFrom(': ', ':', ' '), line).map(([name, sep, value]) => `${name}${sep}${value}`)
const frame = fc.tuple(fc.array(field, { minLength: 1, maxLength: 4 }), fc.constantFrom('\n', '\r\n')).map(([fields, eol]) => `${fields.join(eol)}${eol}${eol}`)
const jsonFrame = fc.tuple(fc.option(fc.constantFrom('message_start', 'response.output_text.delta', 'ping'), { nil: undefined }), fc.jsonValue()).map(([event, value]) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(value)}\n\n`)
const stream = fc.tuple(fc.array(fc.oneof(frame, jsonFrame), { maxLength: 8 }), fc.option(line, { nil: undefined })).map(([frames, tail]) => frames.join('') + (tail ?? ''))

describe('frames and cassettes round-trip bytes', () => {
  it('split → store → replay gives the stream back byte for byte', () => {
    fc.assert(
      fc.property(stream, (text) => {
        expect(splitSseFrames(text).map((raw) => frameBytes(frameFromRaw(raw))).join('')).toBe(text)
      }),
      { numRuns: 500 },
    )
  })

  it('a cassette written and read again replays the same bytes', () => {
    fc.assert(
      fc.property(stream, fc.jsonValue(), (text, body) => {
        const interaction: Interaction = {
          wire: 'anthropic-messages',
          request: { method: 'POST', path: '/v1/messages', headers: { 'content-type': 'application/json' }, body: body as never },
          response: { status: 200, headers: { 'content-type': 'text/event-stream' }, frames: splitSseFrames(text).map((raw) => frameFromRaw(raw)) },
        }
        const cassette = parseCassette(serializeCassette({ provenance: 'synthetic', tool: 'vitest-harness test', interactions: [interaction] }), 'fuzz')
        expect(cassette.wire).toBe('anthropic-messages')
        const replayed = cassette.interactions[0]?.response.frames?.map(frameBytes).join('') ?? ''
        expect(replayed).toBe(text)
        expect(cassette.interactions[0]?.request.body).toEqual(JSON.parse(JSON.stringify(body)))
      }),
      { numRuns: 300 },
    )
  })

  it('bytes that are not UTF-8, in frames and whole bodies, come back byte for byte', () => {
    const frameBytesArbitrary = fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.concat([Buffer.from('data: '), bytes, Buffer.from('\n\n')]))
    fc.assert(
      fc.property(fc.array(frameBytesArbitrary, { maxLength: 4 }), fc.uint8Array({ maxLength: 128 }), (frames, body) => {
        const cassette = parseCassette(
          serializeCassette({
            provenance: 'synthetic',
            tool: 'vitest-harness test',
            interactions: [
              { wire: 'openai-chat', request: { method: 'POST', path: '/v1/chat/completions', headers: {} }, response: { status: 200, headers: {}, frames: frames.map((bytes) => frameFromBytes(bytes)) } },
              { wire: 'openai-chat', request: { method: 'POST', path: '/v1/chat/completions', headers: {} }, response: { status: 200, headers: {}, ...bodyFromBuffer(body) } },
            ],
          }),
          'fuzz',
        )
        const [streamed, whole] = cassette.interactions
        expect(Buffer.concat((streamed?.response.frames ?? []).map(frameBuffer)).equals(Buffer.concat(frames))).toBe(true)
        expect(bodyBuffer(whole?.response ?? { status: 0, headers: {} }).equals(Buffer.from(body))).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('a cassette cut anywhere short of its end is refused, never read as whole', () => {
    fc.assert(
      fc.property(stream, fc.nat(), (text, seed) => {
        const interaction: Interaction = {
          wire: 'openai-chat',
          request: { method: 'POST', path: '/v1/chat/completions', headers: {}, body: { stream: true } },
          response: { status: 200, headers: { 'content-type': 'text/event-stream' }, frames: splitSseFrames(text).map((raw) => frameFromRaw(raw)) },
        }
        const whole = serializeCassette({ provenance: 'synthetic', tool: 'vitest-harness test', interactions: [interaction, interaction] })
        const cut = whole.slice(0, seed % whole.length)
        expect(() => parseCassette(cut, 'fuzz')).toThrow(expect.objectContaining({ code: 'VH_CASSETTE_TRUNCATED' }))
      }),
      { numRuns: 500 },
    )
  })
})
