import { describe, expect, it } from 'vitest'
import { EventStreamWriter, readEventText, streamCompleteness } from 'vitest-harness'

// An ordinary suite about a harness's event stream. Nothing here knows about evidence: the
// reporter configured in vitest.config.ts turns this file's results into a `test_result` record
// (demo-output/evidence/test_result.event-stream-test-ts.*.evidence.yaml) that `aep govern
// evaluate --evidence` reads — and `npx vitest-harness evidence validate` checks.
describe('a stream written by EventStreamWriter', () => {
  const writer = new EventStreamWriter('example')
  const text = [
    writer.write({ event: 'turn.started', turn: 1 }),
    writer.write({ event: 'text', text: 'hello' }),
    writer.close('completed'),
  ].join('')

  it('reads back without a diagnostic', () => {
    expect(readEventText(text).diagnostics).toEqual([])
  })

  it('numbers its lines from 1', () => {
    expect(readEventText(text).events.map((event) => event.seq)).toEqual([1, 2, 3])
  })

  it('proves it ended: one stream.closed, last', () => {
    expect(streamCompleteness(readEventText(text).events).kind).toBe('complete')
  })
})
