/**
 * Reads the one instant form transcripts record — `2026-08-21T12:04:15.233Z`, fraction optional —
 * into epoch milliseconds, as upstream does. Anything else is `null`, so a duration over it is
 * `unk` rather than wrong. No clock is read anywhere: every duration is a recorded difference.
 */
export function parseTimestampMs(text: string): number | null {
  const fast = parseCanonical(text)
  if (fast !== undefined) return fast
  if (!text.endsWith('Z')) return null
  const body = text.slice(0, -1)
  const t = body.indexOf('T')
  if (t === -1) return null
  const date = body.slice(0, t)
  const rest = body.slice(t + 1)
  const dot = rest.indexOf('.')
  const time = dot === -1 ? rest : rest.slice(0, dot)
  const fraction = dot === -1 ? null : rest.slice(dot + 1)

  const dateParts = date.split('-')
  if (dateParts.length !== 3) return null
  const [year, month, day] = dateParts.map(integer)
  if (year === null || month === null || day === null || year === undefined || month === undefined || day === undefined) return null
  if (month < 1 || month > 12 || day < 1 || day > 31) return null

  const timeParts = time.split(':')
  if (timeParts.length !== 3) return null
  const [hour, minute, second] = timeParts.map(integer)
  if (hour === null || minute === null || second === null || hour === undefined || minute === undefined || second === undefined) return null
  if (hour > 23 || minute > 59 || second > 60) return null

  let milliseconds = 0
  if (fraction !== null) {
    if (!/^[0-9]+$/.test(fraction)) return null
    milliseconds = Number(fraction.slice(0, 3).padEnd(3, '0'))
  }
  return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1_000 + milliseconds
}

/**
 * An event's recorded time as epoch milliseconds, or `null` where it recorded none or another form.
 * Read on demand: most checks never ask an event its time, so the reader does not parse them all.
 */
export function timeOf(timestamp: string | null): number | null {
  return timestamp === null ? null : parseTimestampMs(timestamp)
}

/** Rust's `str::parse::<i64>`: an optional sign, then ASCII digits. */
function integer(text: string): number | null {
  return /^[+-]?[0-9]+$/.test(text) ? Number(text) : null
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's closed form). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.trunc((y >= 0 ? y : y - 399) / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.trunc((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.trunc(yearOfEra / 4) - Math.trunc(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

const DIGIT_POSITIONS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] as const

const digit = (text: string, at: number): number => {
  const code = text.charCodeAt(at) - 48
  return code >= 0 && code <= 9 ? code : -1
}

/**
 * The form nearly every transcript writes, `YYYY-MM-DDTHH:MM:SS[.fff]Z`, read by position without
 * allocating (a checker reads one per event). `undefined` hands anything else to the general rules.
 */
function parseCanonical(text: string): number | null | undefined {
  const length = text.length
  if (length < 20 || text.charCodeAt(length - 1) !== 90 /* Z */) return undefined
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return undefined
  for (const at of DIGIT_POSITIONS) if (digit(text, at) < 0) return undefined
  const second = digit(text, 17) * 10 + digit(text, 18)
  const minute = digit(text, 14) * 10 + digit(text, 15)
  const hour = digit(text, 11) * 10 + digit(text, 12)
  const day = digit(text, 8) * 10 + digit(text, 9)
  const month = digit(text, 5) * 10 + digit(text, 6)
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3)
  let milliseconds = 0
  if (length > 20) {
    if (text[19] !== '.' || length === 21) return undefined
    let scale = 100
    for (let at = 20; at < length - 1; at++) {
      const d = digit(text, at)
      if (d < 0) return undefined
      milliseconds += d * scale
      scale = Math.floor(scale / 10)
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null
  return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1_000 + milliseconds
}
