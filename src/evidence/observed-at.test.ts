import { describe, expect, it } from 'vitest'
import { EvidenceError } from './errors.js'
import { civilDate, clockFromOption, isInTheFuture, iso8601, parseCivilDate, parseObservedAtOption, renderObservedAt } from './observed-at.js'

describe('observed_at', () => {
  it('maps a day to its midnight UTC and back', () => {
    for (const day of ['1970-01-01', '2024-02-29', '2000-02-29', '2026-09-01', '2100-03-01']) {
      const parsed = parseCivilDate(day)
      if (!('at' in parsed)) throw new Error(parsed.reason)
      expect(parsed.at).toBe(Date.parse(`${day}T00:00:00Z`))
      expect(civilDate(parsed.at)).toBe(day)
    }
  })

  it.each([
    ['2026-9-01', 'zero-padded'],
    ['2026-13-01', 'outside 1 to 12'],
    ['2026-02-29', '2026-02 has 28 days'],
    ['2100-02-29', '2100-02 has 28 days'],
    ['2026-04-31', '2026-04 has 30 days'],
  ])('refuses %s (%s)', (day, reason) => {
    const parsed = parseCivilDate(day)
    expect('reason' in parsed && parsed.reason).toContain(reason)
  })

  it('reads the option spelling as a day or an instant', () => {
    expect(parseObservedAtOption('2026-09-01', '--now')).toEqual({ at: 1788220800000, writtenAs: 'day' })
    expect(parseObservedAtOption('1788271620000', '--now')).toEqual({ at: 1788271620000, writtenAs: 'instant' })
    expect(() => parseObservedAtOption('yesterday', '--observed-at')).toThrow(EvidenceError)
    expect(() => parseObservedAtOption('yesterday', '--observed-at')).toThrow(/--observed-at "yesterday": expected YYYY-MM-DD or epoch milliseconds/)
  })

  it('pins a --now day to its last millisecond', () => {
    expect(clockFromOption(parseObservedAtOption('2026-09-01', '--now'))).toBe(Date.parse('2026-09-02T00:00:00Z') - 1)
    expect(clockFromOption(parseObservedAtOption('5', '--now'))).toBe(5)
  })

  it('refuses an instant exactly and a day only once it has begun nowhere (UTC+14)', () => {
    const midnight = Date.parse('2026-09-02T00:00:00Z')
    const day = { at: midnight, writtenAs: 'day' } as const
    const asInstant = { at: midnight, writtenAs: 'instant' } as const
    expect(isInTheFuture(asInstant, midnight - 1)).toBe(true)
    expect(isInTheFuture(asInstant, midnight)).toBe(false)
    expect(isInTheFuture(day, midnight - 14 * 3_600_000)).toBe(false)
    expect(isInTheFuture(day, midnight - 14 * 3_600_000 - 1)).toBe(true)
  })

  it('renders the spelling the writer used, and the clock to the second', () => {
    expect(renderObservedAt({ at: 1788220800000, writtenAs: 'day' })).toBe('2026-09-01')
    expect(renderObservedAt({ at: 1788220800000, writtenAs: 'instant' })).toBe('1788220800000ms')
    expect(iso8601(1787956053626)).toBe('2026-08-28T22:27:33Z')
  })
})
