import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readTranscriptEventsSync } from '../../adapters/transcript/read.js'
import { canonicalEventObject } from './canonical-object.js'
import { JsonNumber, RustFloat } from './float.js'
import type { Emission } from './types.js'
import { writeEventLine } from './write.js'

const WILD = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'wild')
const LIMIT = 8 * 1024 * 1024

/** The round trip the object stands for: the writer's line, read by `JSON.parse`. */
const roundTrip = (seq: number, run: string, emission: Emission): unknown => JSON.parse(writeEventLine(seq, run, emission))

/** Equal as values (-0 apart from 0) and in key order, which `compact()` and digests see. */
function expectSameAsRoundTrip(seq: number, run: string, emission: Emission): boolean {
  const object = canonicalEventObject(seq, run, emission, LIMIT)
  if (object === undefined) return false
  const parsed = roundTrip(seq, run, emission)
  expect(isDeepStrictEqual(object, parsed), `${emission.event} #${seq}`).toBe(true)
  expect(JSON.stringify(object)).toBe(JSON.stringify(parsed))
  return true
}

function wildFiles(): string[] {
  const out: string[] = []
  for (const folder of readdirSync(WILD)) {
    const dir = join(WILD, folder)
    if (!statSync(dir).isDirectory()) continue
    for (const entry of readdirSync(dir)) if (entry !== 'MANIFEST.md') out.push(join(dir, entry))
  }
  return out.sort()
}

describe('canonicalEventObject is JSON.parse of the line the writer prints', () => {
  it('for every event of every transcript in the wild corpus', () => {
    let events = 0
    let fellBack = 0
    for (const file of wildFiles()) {
      const emissions = readTranscriptEventsSync(file, { run: 'convert' })
      emissions.forEach((emission, index) => {
        events += 1
        if (!expectSameAsRoundTrip(index + 1, 'convert', emission)) fellBack += 1
      })
    }
    expect(events).toBeGreaterThan(1000)
    // The line is printed only for the rare value that needs it; the corpus holds none.
    expect(fellBack).toBe(0)
  })

  it('for free values: nested objects sorted by code point, lossless numbers, -0, holes and __proto__', () => {
    const input = { z: 1, a: [1, undefined, -0, new JsonNumber(2, '2.0'), new RustFloat(3)], é: { b: null, a: 'x' }, skipped: undefined, '10': true, '2': false }
    const extra = JSON.parse('{"__proto__":{"polluted":1},"k":1}') as Record<string, unknown>
    const emission = { event: 'tool.requested', call_id: 'c', name: 'Bash', input: { ...input, nested: extra } } as unknown as Emission
    expect(expectSameAsRoundTrip(3, 'r', emission)).toBe(true)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('for random JSON values and doubles carried by any event field', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.double(), fc.string(), (value, number, text) => {
        const emission = {
          event: 'tool.result',
          call_id: text,
          is_error: number > 0,
          content: text,
          bytes: number,
          tool_use_result: value,
        } as unknown as Emission
        const object = canonicalEventObject(1, 'r', emission, LIMIT)
        if (object === undefined) return
        expect(isDeepStrictEqual(object, roundTrip(1, 'r', emission))).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('hands a line that may be over the limit back to be printed, where the limit is decided', () => {
    const emission = { event: 'text', text: 'x'.repeat(2000), request_id: null } as unknown as Emission
    expect(canonicalEventObject(1, 'r', emission, 1000)).toBeUndefined()
    expect(canonicalEventObject(1, 'r', emission, 100_000)).toBeDefined()
  })

  it('hands a value the writer prints in its own way (a bigint) back to be printed', () => {
    const emission = { event: 'tool.requested', call_id: 'c', name: 'Bash', input: { n: 10n } } as unknown as Emission
    expect(canonicalEventObject(1, 'r', emission, LIMIT)).toBeUndefined()
  })
})
