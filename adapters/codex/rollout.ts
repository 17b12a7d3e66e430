import type { CloseReason, Emission } from '../../src/events/types.js'
import { parseJsonLossless } from '../../src/events/json.js'
import { asArray, asBoolean, asF64, asObject, asString, asU64, isObject, type JsonObject } from '../shared/fields.js'
import { argumentsObject } from '../shared/arguments.js'
import { isEnriched } from '../shared/hermetic.js'
import { OpeningBuffer } from '../shared/opening.js'
import { opaqueLine } from '../shared/opaque.js'
import { classifiedCall, sessionEnded, sessionStart, timed, toolRequested, toolResult } from '../shared/session.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { CODEX_ADAPTER_ID, CODEX_PINNED_VERSIONS } from './declaration.js'
import { CODEX_TOOL_OPERATIONS } from './operations.js'
import { codexTokens, isZero, normalisedUsage, reportedUsage, tokensSince, type CodexTokens } from './usage.js'

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/** The text of a message-ish payload, wherever Codex puts it (upstream's `text_of`). */
function textOf(payload: JsonObject): string {
  const message = asString(payload['message'])
  if (message !== undefined) return message
  const text = asString(payload['text'])
  if (text !== undefined) return text
  const parts = asArray(payload['content'])
  if (parts) {
    const joined = parts.map((part) => (isObject(part) ? asString(part['text']) : undefined)).filter((part): part is string => part !== undefined)
    if (joined.length > 0) return joined.join('')
  }
  return ''
}

/** A reasoning item's readable text: its summary parts, else its content. */
function reasoningText(payload: JsonObject): string {
  const summary = asArray(payload['summary'])
  if (summary) {
    const parts = summary.map((part) => (isObject(part) ? asString(part['text']) : undefined)).filter((part): part is string => part !== undefined)
    if (parts.length > 0) return parts.join('\n')
  }
  return textOf(payload)
}

const EXIT_CODE = /(?:Process exited with code|Exit code:)\s*(-?\d+)/

function exitCodeIn(output: unknown): number | null {
  const text = typeof output === 'string' ? output : isObject(output) ? asString(output['content']) : undefined
  const match = text === undefined ? null : EXIT_CODE.exec(text)
  return match ? Number(match[1]) : null
}

/**
 * The Codex session rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`), one
 * `{timestamp, type, payload}` line at a time. Reproduces metaharness's rollout projection:
 * version-gated (a warning off the pin, never a refusal), `session.ended` built at the end from the
 * last `task_complete`, every unmapped shape `opaque`. Enriched, it also decodes arguments into
 * objects, classifies calls, reports usage per request instead of cumulatively, reads the model
 * from `turn_context`, and drops the `event_msg` echoes of items the `response_item`s already carry.
 */
export class CodexRolloutProjector implements RecordProjector {
  private readonly enriched: boolean
  private readonly opening = new OpeningBuffer()
  private sawMeta = false
  private turn = 0
  private lastComplete: { at: string | undefined; payload: JsonObject } | undefined
  private lastTotals: CodexTokens | undefined
  private model: string | null = null

  constructor(private readonly seam: SeamOptions) {
    this.enriched = isEnriched(seam, 'upstream')
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    return this.opening.pass([opaqueLine(raw, null, null, lineNumber)])
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const at = asString(record['timestamp'])
    const type = asString(record['type']) ?? ''
    const payload = asObject(record['payload']) ?? {}
    let events: Emission[]
    switch (type) {
      case 'session_meta':
        events = this.sessionMeta(payload, raw, lineNumber, at)
        break
      case 'response_item':
        events = this.responseItem(payload, raw, lineNumber)
        break
      case 'event_msg':
        events = this.eventMessage(payload, raw, lineNumber)
        break
      default:
        if (type === 'turn_context') this.model = asString(payload['model']) ?? this.model
        events = [opaqueLine(raw, type, asString(payload['type']) ?? null, lineNumber)]
    }
    timed(events, at)
    const start = this.opening.pending
    if (start && type === 'turn_context') {
      start.model = this.model
      return this.opening.release(events)
    }
    return this.opening.pass(events)
  }

  finish(): Emission[] {
    const complete = this.lastComplete
    this.lastComplete = undefined
    if (!complete) return this.opening.release()
    const ended = sessionEnded({
      num_turns: this.turn,
      duration_ms: asU64(complete.payload['duration_ms']) ?? null,
      ttft_ms: asU64(complete.payload['time_to_first_token_ms']) ?? null,
      usage: this.lastTotals ? this.totalUsage(this.lastTotals) : null,
    })
    return this.opening.release([complete.at === undefined ? ended : { ...ended, at: complete.at }])
  }

  closure(): CloseReason | null {
    // A rollout is append-only and has no closing record: it never proves the run ended.
    return null
  }

  private totalUsage(tokens: CodexTokens): Usage {
    return this.enriched ? normalisedUsage(tokens) : reportedUsage(tokens)
  }

  private sessionMeta(payload: JsonObject, raw: string, lineNumber: number, at: string | undefined): Emission[] {
    if (this.sawMeta) return [opaqueLine(raw, 'session_meta', null, lineNumber)]
    this.sawMeta = true
    const version = asString(payload['cli_version']) ?? null
    const start = sessionStart(CODEX_ADAPTER_ID, this.seam, {
      harness_version: version,
      session_id: asString(payload['session_id']) ?? asString(payload['id']) ?? null,
      model: null,
      cwd: asString(payload['cwd']) ?? null,
    })
    const events: Emission[] = []
    if (version !== null && !CODEX_PINNED_VERSIONS.includes(version)) {
      events.push({
        event: 'warning',
        code: 'version_outside_pin',
        message: `the rollout was written by codex-cli ${version} and this adapter is pinned to ${CODEX_PINNED_VERSIONS.join(', ')}; the format has no documented stability guarantee, so unmapped shapes become opaque rather than errors`,
      })
    }
    if (!this.enriched) return [start, ...events]
    // The model is a per-turn fact (`turn_context`); hold the opening until the first one names it.
    this.opening.begin(at === undefined ? start : { ...start, at })
    return events
  }

  private toolRequested(callId: string, name: string, input: unknown): Emission {
    return this.enriched ? classifiedCall(CODEX_TOOL_OPERATIONS, callId, name, input) : toolRequested(callId, name, input)
  }

  private responseItem(payload: JsonObject, raw: string, lineNumber: number): Emission[] {
    const itemType = asString(payload['type']) ?? ''
    const callId = asString(payload['call_id']) ?? ''
    switch (itemType) {
      case 'function_call':
      case 'custom_tool_call': {
        const name = asString(payload['name']) ?? ''
        let input: unknown
        if (this.enriched) {
          input = itemType === 'function_call' ? argumentsObject(payload['arguments'], 'arguments') : argumentsObject(payload['input'] ?? payload['arguments'], 'input')
        } else {
          const text = asString(payload['arguments']) ?? ''
          try {
            input = parseJsonLossless(text)
          } catch {
            input = text
          }
        }
        return [this.toolRequested(callId, name, input)]
      }
      case 'local_shell_call':
        if (!this.enriched) break
        return [this.toolRequested(callId || (asString(payload['id']) ?? ''), 'local_shell', asObject(payload['action']) ?? {})]
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const content = payload['output'] ?? null
        const exitCode = this.enriched ? exitCodeIn(content) : null
        const success = isObject(content) ? asBoolean(content['success']) : undefined
        const isError = !this.enriched ? null : success !== undefined ? !success : exitCode !== null ? exitCode !== 0 : null
        return [toolResult(callId, isError, content, exitCode)]
      }
      case 'message':
        if (asString(payload['role']) === 'assistant') return [{ event: 'text', text: textOf(payload), request_id: null }]
        break
      case 'reasoning':
        return [{ event: 'thinking', text: this.enriched ? reasoningText(payload) : textOf(payload), request_id: null }]
    }
    return [opaqueLine(raw, 'response_item', itemType, lineNumber)]
  }

  private eventMessage(payload: JsonObject, raw: string, lineNumber: number): Emission[] {
    const messageType = asString(payload['type']) ?? ''
    switch (messageType) {
      case 'task_started':
        this.turn += 1
        return [{ event: 'turn.started', turn: this.turn, frame_digest: null }]
      case 'task_complete':
        this.lastComplete = { at: undefined, payload }
        return [{ event: 'turn.ended', turn: Math.max(this.turn, 1), stop_reason: null }]
      case 'turn_aborted':
        if (!this.enriched) break
        return [{ event: 'turn.ended', turn: Math.max(this.turn, 1), stop_reason: asString(payload['reason']) ?? 'aborted' }]
      case 'token_count':
        return this.tokenCount(payload, raw, lineNumber)
      case 'agent_message':
        // Enriched: the `response_item` message already carried this text; an echo is not a second answer.
        return this.enriched ? [] : [{ event: 'text', text: textOf(payload), request_id: null }]
      case 'agent_reasoning':
      case 'agent_reasoning_raw_content':
        return this.enriched ? [] : [{ event: 'thinking', text: textOf(payload), request_id: null }]
      case 'user_message':
        if (!this.enriched) break
        return [{ event: 'injection', text: asString(payload['message']) ?? '', origin: 'user' }]
      case 'error':
      case 'stream_error':
        if (!this.enriched) break
        return [{ event: 'warning', code: `codex-${messageType.replace('_', '-')}`, message: asString(payload['message']) ?? '' }]
    }
    return [opaqueLine(raw, 'event_msg', messageType, lineNumber)]
  }

  private tokenCount(payload: JsonObject, raw: string, lineNumber: number): Emission[] {
    const events: Emission[] = []
    const info = asObject(payload['info'])
    const totals = codexTokens(info?.['total_token_usage'])
    if (totals) {
      if (this.enriched) {
        const since = tokensSince(totals, this.lastTotals)
        // A repeated report (same totals) is no new request.
        if (!this.lastTotals || !isZero(since)) events.push({ event: 'usage', request_id: null, model: this.model, usage: normalisedUsage(since) })
      } else {
        events.push({ event: 'usage', request_id: null, model: null, usage: this.totalUsage(totals) })
      }
      this.lastTotals = totals
    }
    const limits = asObject(payload['rate_limits'])
    if (limits) {
      const primary = asObject(limits['primary'])
      events.push({
        event: 'rate_limit',
        info: {
          status: asString(limits['rate_limit_reached_type']) ?? null,
          window: asString(limits['limit_name']) ?? asString(limits['limit_id']) ?? null,
          resets_at: null,
          utilization: asF64(primary?.['used_percent']) ?? null,
          using_overage: null,
        },
      })
    }
    if (events.length === 0) events.push(opaqueLine(raw, 'event_msg', 'token_count', lineNumber))
    return events
  }
}
