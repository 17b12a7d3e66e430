import { describe, expect, it } from 'vitest'
import { parseTimestampMs } from './timestamp.js'

describe('reading a recorded instant', () => {
  it('reads the one form transcripts record, fraction optional', () => {
    expect(parseTimestampMs('1970-01-01T00:00:00.000Z')).toBe(0)
    expect(parseTimestampMs('1970-01-01T00:00:00Z')).toBe(0)
    expect(parseTimestampMs('2026-08-21T12:04:15.233Z')).toBe(1_787_313_855_233)
    expect(parseTimestampMs('2026-08-21T12:04:15.2Z')).toBe(1_787_313_855_200)
    expect(parseTimestampMs('2026-08-21T12:04:15.233999Z')).toBe(1_787_313_855_233)
    expect((parseTimestampMs('2026-08-21T12:04:16.719Z') as number) - (parseTimestampMs('2026-08-21T12:04:15.233Z') as number)).toBe(1_486)
    expect(parseTimestampMs('2024-02-29T23:59:59.999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999))
  })

  it('refuses every other shape, so a duration over it is unknown rather than wrong', () => {
    for (const refused of ['2026-08-21 12:04:15Z', '2026-08-21T12:04:15.233+02:00', '2026-08-21T12:04:15.233', '2026-13-01T00:00:00Z', '2026-08-21T12:04:15.Z', 'not a time', '2026-08-21T24:00:00Z']) {
      expect(parseTimestampMs(refused), refused).toBeNull()
    }
  })
})
