import { describe, expect, it } from 'vitest'
import { call, ended, metaharness, start, type Event } from '../../../test/helpers/trace.js'
import { readSpec } from '../spec/read.js'
import { checkTranscriptDetailed } from './check.js'
import { reportToText } from './render.js'
import { UNREAD_LINES_SHOWN } from './unread.js'

/** An undecidable row in the text report counts the unread records by type and names only the first few lines. */

const SPEC = readSpec('format: trace-spec/1\nid: unit/render\nexpectations:\n  - id: ran-tests\n    expect: {tool.called: {operations: [shell], count: {at_least: 1}}}\n')

async function* chunks(text: string): AsyncGenerator<string> {
  yield text
}

const unread = (type: string, subtype: string | null, line: number): Event => ({ event: 'opaque', vendor_type: type, vendor_subtype: subtype, digest: '0'.repeat(64), source_line: line })

/** 44 token counts, 30 turn contexts and 16 reasoning items, interleaved, on vendor lines 3, 5, 7, … */
function noisyRun(): string {
  const events: Event[] = [start()]
  for (let i = 0; i < 90; i += 1) {
    const [type, subtype] = i % 2 === 0 && i < 88 ? ['event_msg', 'token_count'] : i < 60 ? ['turn_context', null] : ['response_item', 'reasoning']
    events.push(unread(type as string, subtype ?? null, 3 + 2 * i))
  }
  events.push(call('c-1', 'Read', { file_path: '/w/a' }, { operations: ['file.read'] }), ended())
  return metaharness(events)
}

describe('readable unknowns in the text report', () => {
  it('counts the records by type and names the first few lines, never every one', async () => {
    const { report, unread: tally } = await checkTranscriptDetailed(SPEC, chunks(noisyRun()))
    const row = report.expectations[0]
    expect(row?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'opaque_events' })
    // The JSON report keeps the full list.
    expect((row?.outcome as { events: number[] }).events).toHaveLength(90)
    expect(tally.total).toBe(90)
    const counts = Object.fromEntries(tally.types.map(({ type, count }) => [type, count]))
    expect(counts).toEqual({ 'event_msg/token_count': 44, turn_context: 30, 'response_item/reasoning': 16 })
    expect(tally.firstLines).toEqual([3, 5, 7, 9, 11])

    const line = reportToText(report, { unread: tally }).split('\n').find((text) => text.includes('ran-tests')) as string
    expect(line).toContain('90 unread record(s)')
    expect(line).toContain('event_msg/token_count ×44')
    expect(line).toContain('turn_context ×30, response_item/reasoning ×16')
    expect(line).toContain('lines 3, 5, 7, 9, 11, …')
    expect(line.match(/\d+/g)?.length).toBeLessThan(20)
  })

  it('without the tally, still counts the types and shows only the first few event indices', async () => {
    const { report } = await checkTranscriptDetailed(SPEC, chunks(noisyRun()))
    const line = reportToText(report).split('\n').find((text) => text.includes('ran-tests')) as string
    expect(line).toContain('90 event(s)')
    expect(line).toContain('event_msg ×44')
    expect(line).toContain(`events ${[1, 2, 3, 4, 5].slice(0, UNREAD_LINES_SHOWN).join(', ')}, …`)
    expect(line.match(/\d+/g)?.length).toBeLessThan(20)
  })
})
