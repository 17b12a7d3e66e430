import { NESTED_CALLS_UNSEEN, nestedWarningNames } from '../../events/nested-calls-unseen.js'
import { PROCESS_INPUT_UNSEEN, processWarningNames } from '../../events/process-input-unseen.js'
import { SUBAGENT_CALLS_UNSEEN, subagentWarningNames } from '../../events/subagent-calls-unseen.js'

/** How many of the latest calls a warning is looked for among: it follows the call it names, in the same record. */
const RECENT = 256

const NAMES_CALL: Readonly<Record<string, (message: string, callId: string) => boolean>> = {
  [SUBAGENT_CALLS_UNSEEN]: subagentWarningNames,
  [NESTED_CALLS_UNSEEN]: nestedWarningNames,
  [PROCESS_INPUT_UNSEEN]: processWarningNames,
}

/**
 * Where calls a stream does not hold may have begun: a subagent's, those of code a call ran, or
 * what a process was sent, each announced by a warning that names the call that started them.
 * They ran after that call, so any event after it may have come after them too: the first
 * occurrence an order is decided by is then not proven first. A warning is placed at the call it
 * names among the latest `RECENT`; one naming none of them (a process still running when the
 * stream ended, a subagent a document lists at its end) is placed at the stream's start.
 * Memory is fixed: `RECENT` ids and indices.
 */
export class CallsElsewhere {
  private readonly ids: (string | null)[] = new Array<string | null>(RECENT).fill(null)
  private readonly indices: number[] = new Array<number>(RECENT).fill(0)
  private next = 0
  /** The first event index such calls may have preceded, or null while none was announced. */
  from: number | null = null

  /** Notes the call at event `index`. */
  call(callId: string | null, index: number): void {
    if (callId === null) return
    const slot = this.next % RECENT
    this.ids[slot] = callId
    this.indices[slot] = index
    this.next += 1
  }

  /** Reads a warning: where its code announces calls elsewhere, places them after the call it names. */
  warning(code: string | null, message: string | null): void {
    const names = code === null ? undefined : NAMES_CALL[code]
    if (names === undefined) return
    this.placeAt(this.after(message ?? '', names))
  }

  /** Calls elsewhere may precede every event from `index` on (a workflow started there). */
  placeAt(index: number): void {
    if (this.from === null || index < this.from) this.from = index
  }

  /** The index after the latest call `message` names, or 0 where it names none of the latest. */
  private after(message: string, names: (message: string, callId: string) => boolean): number {
    const seen = Math.min(this.next, RECENT)
    for (let back = 1; back <= seen; back++) {
      const slot = (this.next - back) % RECENT
      if (names(message, this.ids[slot] as string)) return (this.indices[slot] as number) + 1
    }
    return 0
  }
}
