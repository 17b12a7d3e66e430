import { describe, expect, it } from 'vitest'
import type { ExpectationRow } from '../trace/report-types.js'
import { describeRow } from './trace-failure.js'

const gapOver = (events: number[]): ExpectationRow => ({
  id: 'no-shell',
  statement: null,
  kind: 'tool.absent',
  severity: 'gate',
  outcome: { outcome: 'gap', events, note: `${events.length} call(s) match shell` },
  verdict: 'gap',
})

describe('a trace test failure', () => {
  it('names every cited event of a short gap, as the report does', () => {
    expect(describeRow(gapOver([3, 9]))).toBe('gap no-shell (tool.absent)\n  2 call(s) match shell at events 3, 9\n  cited IR events: 3, 9')
  })

  it('names the first of hundreds of cited events and how many there are, and cuts the note after a comma', () => {
    const events = Array.from({ length: 282 }, (_, index) => 5 + index * 6)
    const [, note, cited] = describeRow(gapOver(events)).split('\n')
    expect(cited).toBe(`  cited IR events: ${events.slice(0, 20).join(', ')} … (282 in all)`)
    expect(note?.length).toBeLessThan(500)
    expect(note).toMatch(/^ {2}282 call\(s\) match shell at events 5, 11, .*[0-9] … \(cut here; the report holds the whole note\)$/)
  })

  it('cites the event an unknown names in its reason', () => {
    const row: ExpectationRow = {
      id: 'tests-pass',
      statement: null,
      kind: 'tool.succeeded',
      severity: 'gate',
      outcome: { outcome: 'undecidable', reason: 'no_result_correlated', call_event: 7 },
      verdict: 'unknown',
    }
    expect(describeRow(row).split('\n').at(-1)).toBe('  cited IR events: 7')
  })
})
