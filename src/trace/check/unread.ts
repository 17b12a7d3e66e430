import { compareCodePoints } from '../../events/json.js'
import type { IrEvent } from '../ir/types.js'

/** How many line numbers, and how many record types, a sentence about unread records names. */
export const UNREAD_LINES_SHOWN = 5
export const UNREAD_TYPES_SHOWN = 5

/** The records a reader could not read, as a person reads them: how many, of which types, and where the first are. */
export interface UnreadRecords {
  readonly total: number
  /** `type` or `type/subtype` (`(untyped)` where the record named none) → count, most frequent first. */
  readonly types: readonly { readonly type: string; readonly count: number }[]
  /** The first few lines they were on (the harness transcript's, where the wire says). */
  readonly firstLines: readonly number[]
}

/** Counts opaque events as they go by: a counter per type and the first few lines. */
export class UnreadTally {
  private total = 0
  private readonly types = new Map<string, number>()
  private readonly lines: number[] = []

  observe(event: IrEvent): void {
    if (event.family !== 'opaque') return
    this.total += 1
    const { eventType, subtype } = event.opaque
    const type = eventType === null ? '(untyped)' : subtype === null || subtype === '' ? eventType : `${eventType}/${subtype}`
    this.types.set(type, (this.types.get(type) ?? 0) + 1)
    if (this.lines.length < UNREAD_LINES_SHOWN) this.lines.push(event.opaque.vendorLine ?? event.sourceLine)
  }

  summary(): UnreadRecords {
    const types = [...this.types].map(([type, count]) => ({ type, count }))
    types.sort((a, b) => b.count - a.count || compareCodePoints(a.type, b.type))
    return { total: this.total, types, firstLines: [...this.lines] }
  }
}

/** `event_msg/token_count ×44, turn_context ×30, … 3 more type(s)`: counts, never a list of every record. */
export function describeTypeCounts(types: readonly { readonly type: string; readonly count: number }[]): string {
  const shown = types.slice(0, UNREAD_TYPES_SHOWN).map(({ type, count }) => `${type} ×${count}`)
  const more = types.length - shown.length
  return more > 0 ? `${shown.join(', ')}, … ${more} more type(s)` : shown.join(', ')
}

/** `3, 5, 8, …`: the first few numbers of a list, and an ellipsis when there are more. */
export function firstFew(numbers: readonly number[], total: number = numbers.length): string {
  const shown = numbers.slice(0, UNREAD_LINES_SHOWN).join(', ')
  return total > Math.min(numbers.length, UNREAD_LINES_SHOWN) ? `${shown}, …` : shown
}

/** Counts of a list of names, most frequent first. */
export function countNames(names: readonly string[]): { type: string; count: number }[] {
  const counts = new Map<string, number>()
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1)
  const out = [...counts].map(([type, count]) => ({ type, count }))
  out.sort((a, b) => b.count - a.count || compareCodePoints(a.type, b.type))
  return out
}

/** The sentence of an `opaque_events` row in the text report, from the tally of the stream. */
export function describeUnread(unread: UnreadRecords): string {
  const where = unread.firstLines.length === 0 ? '' : ` (${unread.firstLines.length === 1 && unread.total === 1 ? 'line' : 'lines'} ${firstFew(unread.firstLines, unread.total)})`
  return `${unread.total} unread record(s): ${describeTypeCounts(unread.types)}${where} — one of them could have changed this answer`
}
