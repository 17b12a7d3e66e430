import type { RefusedCalls, StreamEnd } from '../ir/types.js'

/**
 * A call the harness refused was asked for and never ran: it is no evidence that what it would
 * have done was done. A floor on calls (`tool.called`, `skill.invoked`) is met only by calls that
 * ran, and the first side of an `order` is its first call that ran. A ceiling still counts every
 * call asked for, as upstream does, so this only ever takes an `ok` away (ours: upstream counts a
 * refused call as made).
 */

const NONE: RefusedCalls = { ids: new Set(), unnamed: 0 }

/** What the stream said of its refused calls (nothing, where it has not ended). */
export function refusedOf(end: StreamEnd | null): RefusedCalls {
  return end?.refusedCalls ?? NONE
}

/**
 * How many calls' ids a row keeps. A floor or an order is decided by a few calls, and a run
 * refuses few: past this many, a row counts its calls and bounds how many of the rest were
 * refused, instead of holding an id for each (a gigabyte's run matches hundreds of thousands).
 */
const KEPT_IDS = 1024

/** The calls a selector matched, in order: where each is, and the first `KEPT_IDS` ids. */
export class MatchedCalls {
  readonly indices: number[] = []
  private readonly ids: (string | null)[] = []

  add(index: number, callId: string | null): void {
    this.indices.push(index)
    if (this.ids.length < KEPT_IDS) this.ids.push(callId)
  }

  get count(): number {
    return this.indices.length
  }

  /** Whether every call's id was kept. */
  get whole(): boolean {
    return this.ids.length === this.indices.length
  }

  /** The calls whose ids were kept, split by whether the harness named them refused. */
  kept(refused: RefusedCalls): { ran: number[]; refused: number[] } {
    const ran: number[] = []
    const named: number[] = []
    this.ids.forEach((id, at) => (id !== null && refused.ids.has(id) ? named : ran).push(this.indices[at] as number))
    return { ran, refused: named }
  }

  /**
   * How many of these calls ran: at most those not named refused; at least that less every
   * refusal named nowhere, and every named one not found among the kept ids (it may be among the rest).
   * With the kept calls split as `kept` splits them.
   */
  ran(refused: RefusedCalls): { ran: number[]; named: number[]; atMost: number; atLeast: number } {
    const kept = this.kept(refused)
    const named = kept.refused
    const atMost = this.count - named.length
    const unkept = this.count - this.ids.length
    const mayBeUnkept = unkept > 0 ? Math.min(unkept, Math.max(0, refused.ids.size - named.length)) : 0
    return { ran: kept.ran, named, atMost, atLeast: Math.max(0, atMost - refused.unnamed - mayBeUnkept) }
  }
}
