import { EvidenceError } from './errors.js'

/**
 * When somebody looked, as AEP's `ObservedAt` models it (`aep-domain/src/time.rs`): an instant in
 * epoch milliseconds, plus how the writer spelled it. A day (`2026-09-01`) and an instant
 * (`1788220800000`) are refused as future on different boundaries, so the spelling is kept.
 */
export interface ObservedAt {
  /** Epoch milliseconds: the day's midnight UTC when a day was written. */
  readonly at: number
  readonly writtenAs: 'day' | 'instant'
}

export const MILLIS_PER_DAY = 86_400_000

/** UTC+14 runs furthest ahead of Greenwich: a day has begun somewhere 14 h before its UTC midnight. */
const MAX_UTC_OFFSET_MILLIS = 14 * 3_600_000

const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** Howard Hinnant's `days_from_civil`: days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = year - (month <= 2 ? 1 : 0)
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

/**
 * Reads `YYYY-MM-DD` (zero-padded, a date the calendar has) as that day's midnight UTC, or returns
 * the reason it is not one. Dates before the epoch clamp to it, as upstream's unsigned timestamp does.
 */
export function parseCivilDate(text: string): { at: number } | { reason: string } {
  const match = DAY_SHAPE.exec(text)
  if (!match) return { reason: 'expected the form YYYY-MM-DD, zero-padded' }
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (month < 1 || month > 12) return { reason: 'the month is outside 1 to 12' }
  const length = daysInMonth(year, month)
  if (day < 1 || day > length) return { reason: `${match[1]}-${match[2]} has ${length} days` }
  return { at: Math.max(0, daysFromCivil(year, month, day)) * MILLIS_PER_DAY }
}

/** The UTC date an instant falls on, `YYYY-MM-DD`. */
export function civilDate(at: number): string {
  return new Date(Math.floor(at / MILLIS_PER_DAY) * MILLIS_PER_DAY).toISOString().slice(0, 10)
}

/** ISO-8601 in UTC to the second, milliseconds dropped: `2026-08-28T22:27:33Z` (upstream's `iso_8601`). */
export function iso8601(at: number): string {
  return `${new Date(at - (at % 1000)).toISOString().slice(0, 19)}Z`
}

/** An instant written as epoch milliseconds. */
export function instant(at: number): ObservedAt {
  return { at, writtenAs: 'instant' }
}

/**
 * Reads the command-line spelling `YYYY-MM-DD|EPOCH_MS` (`--observed-at`, `--now`). Throws an
 * `EvidenceError` naming the option and the value when it is neither.
 */
export function parseObservedAtOption(text: string, option: string): ObservedAt {
  if (/^\d+$/.test(text)) {
    const at = Number(text)
    if (!Number.isSafeInteger(at)) throw new EvidenceError('VH_EVIDENCE_TIME', `${option} ${text}: epoch milliseconds this large are not an instant this tool can hold`)
    return { at, writtenAs: 'instant' }
  }
  const day = parseCivilDate(text)
  if ('reason' in day) throw new EvidenceError('VH_EVIDENCE_TIME', `${option} ${JSON.stringify(text)}: expected YYYY-MM-DD or epoch milliseconds (${day.reason})`)
  return { at: day.at, writtenAs: 'day' }
}

/**
 * The clock a `--now` value pins: an instant exactly, a day at its last millisecond — a record
 * written on the named day is read on that day, as upstream's `--at` reads it.
 */
export function clockFromOption(value: ObservedAt): number {
  return value.writtenAs === 'day' ? value.at + MILLIS_PER_DAY - 1 : value.at
}

/**
 * Whether the observation claims to have happened after `now` (upstream's `ObservedAt::is_after`):
 * an instant compares exactly; a day only once it has begun nowhere on earth (UTC+14).
 */
export function isInTheFuture(observed: ObservedAt, now: number): boolean {
  const begins = observed.writtenAs === 'instant' ? observed.at : Math.max(0, observed.at - MAX_UTC_OFFSET_MILLIS)
  return begins > now
}

/** The spelling the writer used: the date for a day, `<ms>ms` for an instant (upstream's `Display`). */
export function renderObservedAt(observed: ObservedAt): string {
  return observed.writtenAs === 'day' ? civilDate(observed.at) : `${observed.at}ms`
}
