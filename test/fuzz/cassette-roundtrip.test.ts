import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { frameBytes, parseCassette, serializeCassette, splitSseFrames, type Interaction } from '../../recorders/index.js'
import { frameFromRaw } from '../../recorders/provider/cassette.js'

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
        const cassette = parseCassette(serializeCassette({ wire: 'anthropic-messages', provenance: 'synthetic', tool: 'vitest-harness test', interactions: [interaction] }), 'fuzz')
        const replayed = cassette.interactions[0]?.response.frames?.map(frameBytes).join('') ?? ''
        expect(replayed).toBe(text)
        expect(cassette.interactions[0]?.request.body).toEqual(JSON.parse(JSON.stringify(body)))
      }),
      { numRuns: 300 },
    )
  })
})
