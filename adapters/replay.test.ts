import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { digestLine } from '../src/events/digest.js'
import { readEventTextOrThrow } from '../src/events/read.js'
import { B10xProjector } from './b10x/read.js'
import { ReplayError } from './errors.js'
import { replayStream } from './replay.js'
import type { SeamOptions } from './types.js'

const SEAM: SeamOptions = { run: 'bad-input' }

async function replay(chunks: (string | Uint8Array)[], maxLineBytes?: number): Promise<string> {
  let out = ''
  const options = maxLineBytes === undefined ? { source: 'loop.jsonl' } : { source: 'loop.jsonl', maxLineBytes }
  for await (const chunk of replayStream(new B10xProjector(SEAM), Readable.from(chunks), SEAM.run, options)) out += chunk
  return out
}

describe('replayStream: bad b10x input never crashes or hangs', () => {
  it('an empty file replays to an empty stream', async () => {
    expect(await replay([])).toBe('')
  })

  it('a truncated last line is carried across as opaque, with its line number', async () => {
    const events = readEventTextOrThrow(await replay(['{"kind":"turn-started","turn":1}\n{"kind":"text-delta","te']))
    expect(events.map((event) => event.event)).toEqual(['turn.started', 'opaque'])
    expect(events[1]).toMatchObject({ source_line: 2, vendor_subtype: null, digest: digestLine('{"kind":"text-delta","te') })
  })

  it('a 10 MB line is read, not dropped', async () => {
    const text = 'x'.repeat(10 * 1024 * 1024)
    const line = JSON.stringify({ kind: 'text-delta', text })
    const events = readEventTextOrThrow(await replay([line.slice(0, 4_000_000), line.slice(4_000_000), '\n']))
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ event: 'text', text })
  })

  it('a line that is not UTF-8 is opaque, its digest over the raw bytes', async () => {
    const bad = Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])
    const events = readEventTextOrThrow(await replay([Buffer.from('{"kind":"turn-started","turn":1}\n'), bad, Buffer.from('\n')]))
    expect(events[1]).toMatchObject({ event: 'opaque', vendor_type: 'b10x', vendor_subtype: null, digest: digestLine(bad), source_line: 2 })
  })

  it('a JSON array line and {"kind": 7} are opaque with an empty subtype, as upstream reads them', async () => {
    const events = readEventTextOrThrow(await replay(['[1,2,3]\n{"kind": 7}\n']))
    expect(events.map((event) => [event.event, event.event === 'opaque' ? event.vendor_subtype : undefined])).toEqual([
      ['opaque', ''],
      ['opaque', ''],
    ])
  })

  it('a line over the reader limit is refused with its location, not held in memory', async () => {
    const run = replay(['{"kind":"turn-started","turn":1}\n', 'y'.repeat(300), '\n'], 200)
    await expect(run).rejects.toThrow(ReplayError)
    await expect(replay(['{"kind":"turn-started","turn":1}\n', 'y'.repeat(300), '\n'], 200)).rejects.toThrow(
      'VH_LINE_TOO_LONG at loop.jsonl:2: the line is 300 bytes',
    )
  })
})
