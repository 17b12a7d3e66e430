import { describe, expect, it } from 'vitest'
import { renderCompleteness, streamCompleteness } from './completeness.js'

const text = { event: 'text' } as const
const closed = (events: number, reason = 'completed') => ({ event: 'stream.closed', events, reason }) as const

describe('streamCompleteness (notes §1.5)', () => {
  it('is complete with one final marker counting the lines before it', () => {
    const result = streamCompleteness([text, text, closed(2)])
    expect(result).toEqual({ kind: 'complete', events: 2, reason: 'completed' })
    expect(renderCompleteness(result)).toBe('stream: complete — 2 event(s) before the marker, reason completed')
  })

  it('is truncated without a marker', () => {
    expect(streamCompleteness([text, text]).kind).toBe('truncated')
    expect(renderCompleteness(streamCompleteness([]))).toMatch(/^stream: TRUNCATED — /)
  })

  it.each([
    ['a wrong count', [text, closed(5)], /counts 5 event\(s\) but 1 precede it/],
    ['a marker not last', [text, closed(1), text], /line 2 of 3, not the last/],
    ['two markers', [closed(0), closed(1)], /2 stream.closed markers/],
  ])('is inconsistent with %s', (_, events, detail) => {
    const result = streamCompleteness(events)
    expect(result.kind).toBe('inconsistent')
    expect(renderCompleteness(result)).toMatch(/^stream: INCONSISTENT — /)
    expect(renderCompleteness(result)).toMatch(detail)
  })
})
