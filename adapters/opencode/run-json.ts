import type { CloseReason, Emission } from '../../src/events/types.js'
import type { LineFormat } from '../formats.js'
import { asObject, asString, millisToIso, type JsonObject } from '../shared/fields.js'
import { opaqueLine } from '../shared/opaque.js'
import { CallClassifier, sessionEnded, sessionStart, timed } from '../shared/session.js'
import { UnseenNestedCalls } from '../shared/nested-calls.js'
import { UnseenSubagents } from '../shared/subagent.js'
import { UsageSum } from '../shared/usage-sum.js'
import { DriftWatch } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { OPENCODE_RUN_VOCABULARY } from './opencode-vocabulary.js'
import { OPENCODE_ADAPTER_ID, OPENCODE_TOOL_OPERATIONS, opencodeUsage, partEvents } from './parts.js'

const RUN_TYPES = new Set(['step_start', 'step_finish', 'text', 'reasoning', 'tool_use', 'error'])

/**
 * `opencode run --format json` stdout: `{type, sessionID, timestamp, part}` per event. The
 * stream proves closure when its last record is a `step_finish` whose reason is `stop` (or an
 * `error`); `session.ended` sums the steps' cost. It prints the run's own session only: a `task`
 * call's subagent works in a child session whose parts never reach this stdout (1.18.18), so a
 * stream that spawned one proves no closure.
 */
export class OpencodeRunProjector implements RecordProjector {
  private started = false
  private steps = 0
  private cost: number | undefined
  private unpriced = false
  // The stdout's run states no totals: they are the steps' added up.
  private readonly tokens = new UsageSum()
  private failed = false
  private lastReason: string | null = null
  private last: CloseReason | null = null
  // Calls a code-mode script made that no record holds: the stream then proves no end.
  private readonly nested = new UnseenNestedCalls()
  private readonly subagents = new UnseenSubagents('the child session it started, which `opencode export <session>` prints')
  private readonly calls = new CallClassifier(OPENCODE_TOOL_OPERATIONS, OPENCODE_ADAPTER_ID)
  // The stdout names no opencode version; the watch still names the record types it did not know.
  private readonly drift = new DriftWatch(OPENCODE_RUN_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {}

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    this.last = null
    return [opaqueLine(raw, null, null, lineNumber)]
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const type = asString(record['type']) ?? ''
    const at = millisToIso(record['timestamp'])
    // The record's own events are stamped with its time; a part stamps its own (see `partEvents`).
    const events: Emission[] = []
    let parts: Emission[] = []
    const sessionId = asString(record['sessionID'])
    if (!this.started && sessionId !== undefined) {
      this.started = true
      events.push(sessionStart(OPENCODE_ADAPTER_ID, this.seam, { session_id: sessionId }))
    }
    const part = asObject(record['part'])
    this.last = null
    if (type === 'error') {
      this.failed = true
      this.last = 'error'
      const error = asObject(record['error']) ?? {}
      const data = asObject(error['data'])
      events.push({ event: 'warning', code: 'opencode-error', message: (data && asString(data['message'])) ?? asString(error['name']) ?? 'the run failed' })
    } else if (part && RUN_TYPES.has(type)) {
      if (type === 'step_start') this.steps += 1
      if (type === 'step_finish') {
        // One step opencode could not price leaves the run's cost unknown, never the others' sum.
        const usage = opencodeUsage(part['tokens'], part['cost'])
        this.unpriced ||= usage.cost_usd === null && part['cost'] !== undefined
        if (usage.cost_usd !== null && usage.cost_usd !== undefined) this.cost = (this.cost ?? 0) + usage.cost_usd
        this.tokens.add(usage)
        this.lastReason = asString(part['reason']) ?? null
        if (this.lastReason === 'stop') this.last = 'completed'
      }
      parts = this.subagents.watch(partEvents(part, 'assistant', null, lineNumber, this.calls, at, this.nested))
    } else {
      this.drift.sawUnknown(type, part ? (asString(part['type']) ?? null) : null)
      events.push(opaqueLine(raw, type, part ? (asString(part['type']) ?? null) : null, lineNumber))
    }
    return [...timed(events, at), ...parts]
  }

  finish(): Emission[] {
    if (this.steps === 0 && !this.failed) return this.drift.finish()
    // A stream that stops on neither a final step (`stop`) nor an error was cut short: the run did
    // not end here, so no record says how it ended (its steps, tokens and cost are not the run's).
    if (this.last === null) return this.drift.finish()
    return [
      sessionEnded({
        is_error: this.failed,
        stop_reason: this.lastReason,
        num_turns: this.steps,
        total_cost_usd: this.unpriced ? null : (this.cost ?? null),
        usage: this.tokens.usage(),
        // Every call opencode's permissions refused is a refusal warning before its result.
        permission_denials: [],
      }),
      ...this.drift.finish(),
    ]
  }

  closure(): CloseReason | null {
    return this.nested.closure(this.subagents.closure(this.last))
  }
}

/** opencode's `run --format json` stdout. */
export const opencodeRunFormat: LineFormat = {
  kind: 'lines',
  // Our own mapping (no upstream projection to match byte for byte): numbers by value.
  numbers: 'value',
  name: 'opencode-run-json',
  aliases: ['opencode/run-json'],
  adapter: OPENCODE_ADAPTER_ID,
  summary: 'opencode stdout under run --format json',
  extension: '.jsonl',
  vocabulary: OPENCODE_RUN_VOCABULARY,
  createProjector: (seam) => new OpencodeRunProjector(seam),
  sniff: (record) => RUN_TYPES.has(asString(record['type']) ?? '') && typeof record['sessionID'] === 'string' && !('messageID' in record) && (asObject(record['part']) !== undefined || record['type'] === 'error'),
}
