import { processInputUnseenWarning } from '../../src/events/process-input-unseen.js'
import { requestsUnmarkedWarning } from '../../src/events/requests-unmarked.js'
import { APPROVAL_DENIED, refusalWarning } from '../../src/events/refusal-warnings.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { asArray, asI64, asObject, asString, isObject, type JsonObject } from '../shared/fields.js'
import { argumentsObject } from '../shared/arguments.js'
import { interactiveProgram } from '../shared/interactive.js'
import { opaqueLine } from '../shared/opaque.js'
import { CallClassifier, sessionEnded, sessionStart, toolResult } from '../shared/session.js'
import { UnseenSubagents } from '../shared/subagent.js'
import { DriftWatch, knowsRecord } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { CODEX_ADAPTER_ID } from './declaration.js'
import { CODEX_EXEC_JSON_VOCABULARY, EXEC_CALL_ITEMS } from './exec-json-vocabulary.js'
import { CODEX_TOOL_OPERATIONS } from './operations.js'
import { codexTokens, isZero, normalisedUsage, tokensSince, type CodexTokens } from './usage.js'

/** Item types that are a call: they open with `item.started` and close with `item.completed`. */
const CALL_ITEMS: ReadonlySet<string> = new Set(EXEC_CALL_ITEMS)

/** The call a tool item stands for: the name a spec would match, and its input as an object. */
function callOf(item: JsonObject): { name: string; input: unknown } {
  const type = asString(item['type']) ?? ''
  switch (type) {
    case 'command_execution':
      return { name: 'command_execution', input: { command: item['command'] ?? null } }
    case 'mcp_tool_call':
      return {
        name: `mcp__${asString(item['server']) ?? ''}__${asString(item['tool']) ?? ''}`,
        input: argumentsObject(item['arguments'], 'arguments'),
      }
    case 'file_change': {
      const changes = asArray(item['changes']) ?? []
      const paths = changes.map((change) => (isObject(change) ? asString(change['path']) : undefined)).filter((path): path is string => path !== undefined)
      return { name: 'file_change', input: { changes, paths } }
    }
    case 'web_search':
      return { name: 'web_search', input: { query: item['query'] ?? null, action: item['action'] ?? null } }
    case 'collab_tool_call':
      return { name: asString(item['tool']) ?? 'collab_tool_call', input: Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'id' && key !== 'type' && key !== 'status')) }
    default:
      return { name: type, input: { items: item['items'] ?? null } }
  }
}

/** What a completed tool item says happened, and whether Codex called it a failure. */
function resultOf(item: JsonObject): { content: unknown; exitCode: number | null; isError: boolean | null } {
  const type = asString(item['type'])
  const status = asString(item['status'])
  const failed = status === 'failed' || status === 'declined' ? true : status === 'completed' ? false : null
  switch (type) {
    case 'command_execution': {
      const exitCode = asI64(item['exit_code']) ?? null
      return { content: item['aggregated_output'] ?? null, exitCode, isError: failed ?? (exitCode === null ? null : exitCode !== 0) }
    }
    case 'mcp_tool_call': {
      const error = asObject(item['error'])
      return { content: item['result'] ?? item['error'] ?? null, exitCode: null, isError: error ? true : failed }
    }
    case 'todo_list':
      return { content: item['items'] ?? null, exitCode: null, isError: false }
    default:
      return { content: null, exitCode: null, isError: failed }
  }
}

/**
 * `codex exec --json` stdout: `thread.started`, turns, and items opening and closing. The thin
 * stream carries no timestamps, no durations and no cost; what it does carry maps as follows.
 * A tool item becomes `tool.requested` when it starts (or when it completes, if its start was
 * never written) and `tool.result` when it completes. The stream proves closure when its last
 * record is `turn.completed` (or `turn.failed`). Every record `CODEX_EXEC_JSON_VOCABULARY` lists is
 * read; an unlisted one is `opaque`, and named by the drift warning when the caller states a
 * version the vocabulary was not written against. A sub-agent (`spawn_agent`) works in a thread
 * of its own, whose items never reach this stdout (0.169: its calls are in its own rollout), so a
 * stream that spawned one proves no closure. Nor does one whose run may have typed into a process:
 * `exec_command` may leave a process running, and the `write_stdin` calls that feed it never reach
 * this stdout. A command still running when the stream ends, or one that started a shell or an
 * interpreter reading its input (`bash`, `python3`), may have been sent commands the stream does
 * not show: 0.169 printed a shell's start and nothing of the `rm` typed into it, and a shell that
 * was sent `rm …; exit` only as its completed item, its output the terminal's echo.
 */
export class CodexExecProjector implements RecordProjector {
  private turn = 0
  private readonly open = new Set<string>()
  // Command items started and not yet completed, and those reading their input: id → command line.
  private readonly running = new Map<string, string>()
  private readonly reading = new Map<string, string>()
  private lastTotals: CodexTokens | undefined
  private sawTurnEnd = false
  // A turn started and not yet ended: a stream that stops here was cut short, whatever turns ended before.
  private turnOpen = false
  private failed = false
  private last: CloseReason | null = null
  private readonly subagents = new UnseenSubagents('the sub-agent’s own thread and rollout')
  private readonly classifier = new CallClassifier(CODEX_TOOL_OPERATIONS, CODEX_ADAPTER_ID)
  private readonly drift = new DriftWatch(CODEX_EXEC_JSON_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {
    // The stream names no version; only the caller's word can date it.
    this.drift.sawVersion(seam.harnessVersion)
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    this.last = null
    return [opaqueLine(raw, null, null, lineNumber)]
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const type = asString(record['type']) ?? ''
    const events = this.map(record, type)
    this.last = type === 'turn.completed' ? 'completed' : type === 'turn.failed' ? 'error' : null
    const item = asObject(record['item'])
    const subtype = item ? (asString(item['type']) ?? null) : null
    if (events.length === 0 && !knowsRecord(CODEX_EXEC_JSON_VOCABULARY, type, subtype)) {
      this.drift.sawUnknown(type, subtype)
      return [opaqueLine(raw, type, subtype, lineNumber)]
    }
    return events
  }

  finish(): Emission[] {
    const where = 'the session’s rollout (its `write_stdin` calls)'
    const unseen = [
      ...[...this.running].map(([id, command]) => processInputUnseenWarning(id, command, 'running', where)),
      ...[...this.reading].filter(([id]) => !this.running.has(id)).map(([id, command]) => processInputUnseenWarning(id, command, 'reading', where)),
    ]
    const drift = this.drift.finish()
    // The run's end stands for the last turn that ended; after a turn cut short it is no end of the run.
    if (!this.sawTurnEnd || this.turnOpen) return [...unseen, ...drift]
    return [
      ...unseen,
      sessionEnded({
        is_error: this.failed,
        terminal_reason: this.failed ? 'turn.failed' : 'turn.completed',
        // Codex counts turns by the user's prompts; stdout states no count of the model turns `num_turns` means.
        num_turns: null,
        usage: this.lastTotals ? normalisedUsage(this.lastTotals) : null,
      }),
      ...drift,
    ]
  }

  closure(): CloseReason | null {
    return this.running.size > 0 || this.reading.size > 0 ? null : this.subagents.closure(this.last)
  }

  private requested(id: string, item: JsonObject): Emission[] {
    const call = callOf(item)
    const events = this.classifier.call(id, call.name, call.input)
    const requested = events.at(-1)
    // A file change is an edit whatever its kind, as the rollout's apply_patch is (an `*** Add File`
    // patch included): the same run must classify alike from either of Codex's records.
    if (call.name === 'file_change' && requested?.event === 'tool.requested') {
      const subjects = requested.subjects ?? []
      for (const path of (call.input as { paths: string[] }).paths) if (!subjects.includes(`file:${path}`)) subjects.push(`file:${path}`)
      requested.subjects = subjects
    }
    return this.subagents.watch(events)
  }

  private map(record: JsonObject, type: string): Emission[] {
    switch (type) {
      case 'thread.started':
        return [sessionStart(CODEX_ADAPTER_ID, this.seam, { session_id: asString(record['thread_id']) ?? null }), requestsUnmarkedWarning('Codex `exec --json`', 'over each Codex turn, in its `turn.completed`')]
      case 'turn.started':
        this.turn += 1
        this.turnOpen = true
        return [{ event: 'turn.started', turn: this.turn, frame_digest: null }]
      case 'turn.completed':
      case 'turn.failed': {
        this.sawTurnEnd = true
        this.turnOpen = false
        const events: Emission[] = []
        const totals = codexTokens(record['usage'])
        if (totals) {
          const since = tokensSince(totals, this.lastTotals)
          if (!this.lastTotals || !isZero(since)) events.push({ event: 'usage', request_id: null, model: this.seam.model ?? null, usage: normalisedUsage(since) })
          this.lastTotals = totals
        }
        if (type === 'turn.failed') {
          this.failed = true
          const error = asObject(record['error'])
          events.push({ event: 'warning', code: 'turn-failed', message: (error && asString(error['message'])) ?? 'the turn failed' })
        }
        events.push({ event: 'turn.ended', turn: Math.max(this.turn, 1), stop_reason: type === 'turn.failed' ? 'failed' : null })
        return events
      }
      case 'error':
        return [{ event: 'warning', code: 'codex-error', message: asString(record['message']) ?? '' }]
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        return this.item(record, type)
      default:
        return []
    }
  }

  private item(record: JsonObject, type: string): Emission[] {
    const item = asObject(record['item'])
    if (!item) return []
    const id = asString(item['id']) ?? ''
    const itemType = asString(item['type']) ?? ''
    if (CALL_ITEMS.has(itemType)) {
      const events: Emission[] = []
      if (!this.open.has(id)) {
        this.open.add(id)
        events.push(...this.requested(id, item))
        if (itemType === 'command_execution') {
          const command = asString(item['command']) ?? ''
          if (type !== 'item.completed') this.running.set(id, command)
          if (interactiveProgram(command) !== undefined) this.reading.set(id, command)
        }
      }
      if (type === 'item.completed') {
        this.open.delete(id)
        this.running.delete(id)
        const result = resultOf(item)
        // Declined: Codex's approval refused the call, and it never ran.
        if (asString(item['status']) === 'declined') events.push(refusalWarning(APPROVAL_DENIED, `Codex declined call ${id}`, id))
        events.push(toolResult(id, result.isError, result.content, result.exitCode))
      }
      return events
    }
    if (type !== 'item.completed') return []
    switch (itemType) {
      case 'agent_message':
        return [{ event: 'text', text: asString(item['text']) ?? '', request_id: null }]
      case 'reasoning':
        return [{ event: 'thinking', text: asString(item['text']) ?? '', request_id: null }]
      case 'error':
        return [{ event: 'warning', code: 'codex-error', message: asString(item['message']) ?? '' }]
      default:
        return []
    }
  }
}
