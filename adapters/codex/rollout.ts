import { nestedCallsUnseenWarning } from '../../src/events/nested-calls-unseen.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { parseJsonLossless } from '../../src/events/json.js'
import { asArray, asBoolean, asF64, asI64, asObject, asString, asU64, isObject, type JsonObject } from '../shared/fields.js'
import { argumentsObject } from '../shared/arguments.js'
import { isEnriched } from '../shared/hermetic.js'
import { OpeningBuffer } from '../shared/opening.js'
import { opaqueLine } from '../shared/opaque.js'
import { TypedSessions } from '../shared/typed-sessions.js'
import { CODEX_TYPING } from './terminal-sessions.js'
import { CallClassifier, sessionEnded, sessionStart, textContent, timed, toolRequested, toolResult } from '../shared/session.js'
import { DriftWatch, knowsRecord } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { CODEX_ADAPTER_ID, CODEX_PINNED_VERSIONS } from './declaration.js'
import { CODEX_TOOL_OPERATIONS } from './operations.js'
import { CODEX_ROLLOUT_VOCABULARY } from './rollout-vocabulary.js'
import { endsForkedHistory, ForkedHistory } from './forked-history.js'
import { codexRefusalWarning, isCodexRefusal } from './refusals.js'
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

/**
 * The exit code a shell call's output names: the text 0.5x and later print (`Process exited with
 * code 2`), or the JSON the `shell` tool wrote before (`{"output": …, "metadata": {"exit_code": 2}}`,
 * 0.58 among them).
 */
function exitCodeIn(output: unknown): number | null {
  const text = typeof output === 'string' ? output : isObject(output) ? asString(output['content']) : undefined
  if (text === undefined) return null
  if (text.startsWith('{"output"')) {
    const metadata = asObject(asObject(argumentsObject(text, 'output'))?.['metadata'])
    const code = metadata ? asI64(metadata['exit_code']) : undefined
    if (code !== undefined) return code
  }
  const match = EXIT_CODE.exec(text)
  return match ? Number(match[1]) : null
}

// Code mode's tool: a script that calls Codex's other tools.
const CODE_MODE = 'exec'
const SCRIPT_CALLS_WHERE = 'the rollout only as `item_completed` events, of which this reader reads the commands alone'

/**
 * The Codex session rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`), one
 * `{timestamp, type, payload}` line at a time. Reproduces metaharness's rollout projection:
 * version-gated (a warning off the pin, never a refusal), `session.ended` built at the end from the
 * last `task_complete`, every unmapped shape `opaque`. Enriched, it also decodes arguments into
 * objects, classifies calls, reports usage per request instead of cumulatively, reads the model
 * from `turn_context`, drops the `event_msg` echoes of items the `response_item`s already carry,
 * and times the run by all its turns (`TurnTimes`), counting none of its model turns (Codex counts
 * the user's prompts). Enriched, every record `CODEX_ROLLOUT_VOCABULARY` lists is read (the
 * built-in `web_search_call`, `tool_search_call`, `image_generation_call` and `local_shell_call`
 * are calls like any other); only an unlisted record is `opaque`, and a rollout from a version the
 * vocabulary was not written against ends with a `version_drift` warning naming it and the records
 * it did not know. In code mode, a script's commands are read from their echoes (`scriptCommand`).
 */
export class CodexRolloutProjector implements RecordProjector {
  private readonly enriched: boolean
  private readonly opening = new OpeningBuffer()
  private sawMeta = false
  private turn = 0
  private lastComplete: { at: string | undefined; payload: JsonObject } | undefined
  // A turn started and not yet completed or aborted: a rollout that stops here was cut short mid-turn.
  private turnOpen = false
  // The last task_complete times its own turn only; enriched, the run is timed by all of them.
  private turnTimes = new TurnTimes()
  private lastTotals: CodexTokens | undefined
  // A forked subagent's rollout, held while it may still be copying its parent's (see `ForkedHistory`).
  private forked: ForkedHistory | undefined
  // The running totals where the parent's copied history ended: the run's own usage is what came after.
  private forkTotals: CodexTokens | undefined
  private model: string | null = null
  private readonly classifier = new CallClassifier(CODEX_TOOL_OPERATIONS, CODEX_ADAPTER_ID)
  private readonly sessions = new TypedSessions(CODEX_TOOL_OPERATIONS, CODEX_TYPING)
  private readonly drift = new DriftWatch(CODEX_ROLLOUT_VOCABULARY)
  // The user's words this turn: `user_message` and a completed `UserMessage` item say them twice.
  private readonly heard = new Set<string>()
  // Code mode (`--enable code_mode`): the `exec` scripts still running, and the calls not yet answered
  // (a command's echo comes before its answer), so memory is the calls in flight.
  private readonly scripts = new Set<string>()
  private readonly unanswered = new Set<string>()

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
        events = this.eventMessage(payload, raw, lineNumber, at)
        break
      default:
        if (type === 'turn_context') this.model = asString(payload['model']) ?? this.model
        events = this.enriched && knowsRecord(CODEX_ROLLOUT_VOCABULARY, type) ? [] : [this.opaque(raw, type, asString(payload['type']) ?? null, lineNumber)]
    }
    timed(events, at)
    if (this.forked) return this.holdForked(type, payload, events)
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
    const drift = this.enriched ? this.drift.finish() : []
    // Enriched, the run's end stands for the last completed turn only where no later turn was cut short (upstream writes it regardless).
    if (!complete || (this.enriched && this.turnOpen)) return [...this.releaseForked(), ...drift]
    const ended = sessionEnded({
      // Codex counts turns by the user's prompts; the rollout states no count of the model turns `num_turns` means.
      num_turns: this.enriched ? null : this.turn,
      duration_ms: this.enriched ? this.turnTimes.duration(this.turn) : (asU64(complete.payload['duration_ms']) ?? null),
      ttft_ms: this.enriched ? this.turnTimes.firstToken(this.turn) : (asU64(complete.payload['time_to_first_token_ms']) ?? null),
      usage: this.lastTotals ? this.totalUsage(tokensSince(this.lastTotals, this.forkTotals)) : null,
    })
    return [...this.releaseForked([complete.at === undefined ? ended : { ...ended, at: complete.at }]), ...drift]
  }

  /**
   * A forked rollout's record, held: the output that ends a copied history drops everything before
   * it and the turns it counted (the parent's), and the first `turn_context` after it names the
   * run's model. Past what may be held, the rollout is read as it stands from there.
   */
  private holdForked(type: string, payload: JsonObject, events: Emission[]): Emission[] {
    const forked = this.forked as ForkedHistory
    if (type === 'turn_context') forked.sawModel(this.model)
    if (type === 'response_item' && endsForkedHistory(payload)) {
      forked.copiedHistoryEnded()
      this.turn = 0
      this.turnOpen = false
      this.lastComplete = undefined
      this.turnTimes = new TurnTimes()
      this.heard.clear()
      this.forkTotals = this.lastTotals
      return []
    }
    return forked.hold(events) ? [] : this.releaseForked()
  }

  /** The opening, then what a forked rollout held (its own records), then `after`. */
  private releaseForked(after: Emission[] = []): Emission[] {
    const forked = this.forked
    if (!forked) return this.opening.release(after)
    this.forked = undefined
    const { events, model } = forked.take()
    const start = this.opening.pending
    if (start) start.model = model
    const dropped: Emission[] =
      forked.dropped === 0
        ? []
        : [{ event: 'warning', code: 'forked_history', message: `the rollout opened with its parent's history, copied when the subagent was forked from it: ${forked.dropped} event(s) of it were not read as this run's` }]
    return this.opening.release([...dropped, ...events, ...after])
  }

  closure(): CloseReason | null {
    // A rollout is append-only and has no closing record: it never proves the run ended.
    return null
  }

  private totalUsage(tokens: CodexTokens): Usage {
    return this.enriched ? normalisedUsage(tokens) : reportedUsage(tokens)
  }

  /** An unmapped record: opaque, and (enriched) one more record type the drift warning names. */
  private opaque(raw: string, type: string | null, subtype: string | null, lineNumber: number): Emission {
    if (this.enriched) this.drift.sawUnknown(type, subtype)
    return opaqueLine(raw, type, subtype, lineNumber)
  }

  private sessionMeta(payload: JsonObject, raw: string, lineNumber: number, at: string | undefined): Emission[] {
    if (this.sawMeta) {
      // A forked or resumed session repeats its parent's header: no new facts, the first one holds.
      return this.enriched ? [] : [opaqueLine(raw, 'session_meta', null, lineNumber)]
    }
    this.sawMeta = true
    // A subagent forked from its parent opens with a copy of the parent's rollout.
    if (this.enriched && asString(payload['forked_from_id']) !== undefined) this.forked = new ForkedHistory()
    const version = asString(payload['cli_version']) ?? null
    const start = sessionStart(CODEX_ADAPTER_ID, this.seam, {
      harness_version: version,
      session_id: asString(payload['session_id']) ?? asString(payload['id']) ?? null,
      model: null,
      cwd: asString(payload['cwd']) ?? null,
    })
    if (!this.enriched) {
      const events: Emission[] = [start]
      if (version !== null && !CODEX_PINNED_VERSIONS.includes(version)) {
        events.push({
          event: 'warning',
          code: 'version_outside_pin',
          message: `the rollout was written by codex-cli ${version} and this adapter is pinned to ${CODEX_PINNED_VERSIONS.join(', ')}; the format has no documented stability guarantee, so unmapped shapes become opaque rather than errors`,
        })
      }
      return events
    }
    // Enriched, the vocabulary's versions decide drift (at the end, when the unknown records are counted).
    this.drift.sawVersion(version)
    // The model is a per-turn fact (`turn_context`); hold the opening until the first one names it.
    this.opening.begin(at === undefined ? start : { ...start, at })
    return []
  }

  private toolRequested(callId: string, name: string, input: unknown): Emission[] {
    if (!this.enriched) return [toolRequested(callId, name, input)]
    // Characters written to an interactive shell are command lines: they name what the shell ran.
    return this.sessions.called(callId, name, input, this.classifier.call(callId, name, input))
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
        if (!this.enriched) return this.toolRequested(callId, name, input)
        this.unanswered.add(callId)
        if (itemType !== 'custom_tool_call' || name !== CODE_MODE) return this.toolRequested(callId, name, input)
        // The script's commands are read as it reports them (`item_completed`); its other calls may not be.
        this.scripts.add(callId)
        return [...this.toolRequested(callId, name, input), nestedCallsUnseenWarning(callId, name, SCRIPT_CALLS_WHERE)]
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const content = payload['output'] ?? null
        const exitCode = this.enriched ? exitCodeIn(content) : null
        const success = isObject(content) ? asBoolean(content['success']) : undefined
        const isError = !this.enriched ? null : success !== undefined ? !success : exitCode !== null ? exitCode !== 0 : null
        if (this.enriched) this.sessions.answered(callId, content)
        this.scripts.delete(callId)
        this.unanswered.delete(callId)
        // A refusal is the call's only answer: said before it, as every reader says one.
        const refused = this.enriched && isCodexRefusal(content) ? [codexRefusalWarning(callId, content)] : []
        return [...refused, toolResult(callId, isError, content, exitCode)]
      }
      case 'message':
        if (asString(payload['role']) === 'assistant') return [{ event: 'text', text: textOf(payload), request_id: null }]
        // The prompt context (developer instructions, environment, AGENTS.md) and the user's turn,
        // whose words the user_message / item_completed events carry.
        if (this.enriched) return []
        break
      case 'reasoning':
        return [{ event: 'thinking', text: this.enriched ? reasoningText(payload) : textOf(payload), request_id: null }]
    }
    if (this.enriched) {
      const builtIn = this.builtInItem(itemType, payload, lineNumber)
      if (builtIn) return builtIn
      if (knowsRecord(CODEX_ROLLOUT_VOCABULARY, 'response_item', itemType)) return []
    }
    return [this.opaque(raw, 'response_item', itemType, lineNumber)]
  }

  /** The Responses API's own calls (run by Codex or the provider, never named in a function_call) and inter-agent messages. */
  private builtInItem(itemType: string, payload: JsonObject, lineNumber: number): Emission[] | undefined {
    const id = asString(payload['call_id']) ?? asString(payload['id']) ?? `${itemType}@${lineNumber}`
    switch (itemType) {
      case 'local_shell_call':
        return this.toolRequested(id, 'local_shell', asObject(payload['action']) ?? {})
      case 'web_search_call': {
        const action = asObject(payload['action'])
        const query = (action && asString(action['query'])) ?? asString(payload['query']) ?? null
        return [...this.toolRequested(id, 'web_search', { query, action: action ?? null }), toolResult(id, statusFailed(payload), null)]
      }
      case 'tool_search_call':
        return this.toolRequested(id, 'tool_search', argumentsObject(payload['arguments'], 'arguments'))
      case 'tool_search_output':
        return [toolResult(id, statusFailed(payload), payload['tools'] ?? null)]
      case 'image_generation_call':
        return [...this.toolRequested(id, 'image_generation', { revised_prompt: payload['revised_prompt'] ?? null }), toolResult(id, statusFailed(payload), null)]
      case 'agent_message': {
        const text = textOf(payload)
        return text === '' ? [] : [{ event: 'injection', text, origin: 'agent' }]
      }
      default:
        return undefined
    }
  }

  private eventMessage(payload: JsonObject, raw: string, lineNumber: number, at: string | undefined): Emission[] {
    const messageType = asString(payload['type']) ?? ''
    // 0.16x names a turn's start and end `turn_started`/`turn_complete`; upstream reads only the older names.
    const kind = this.enriched && messageType === 'turn_started' ? 'task_started' : this.enriched && messageType === 'turn_complete' ? 'task_complete' : messageType
    switch (kind) {
      case 'task_started':
        this.turn += 1
        this.turnOpen = true
        this.heard.clear()
        return [{ event: 'turn.started', turn: this.turn, frame_digest: null }]
      case 'task_complete':
        // Enriched, the run's end is stamped with its turn's completion: written at the stream's end, it
        // would otherwise read as later than a turn cut short after it (upstream writes no time).
        this.lastComplete = { at: this.enriched ? at : undefined, payload }
        this.turnOpen = false
        this.turnTimes.completed(asU64(payload['duration_ms']), asU64(payload['time_to_first_token_ms']))
        return [{ event: 'turn.ended', turn: Math.max(this.turn, 1), stop_reason: null }]
      case 'turn_aborted':
        this.turnOpen = false
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
        return this.heardFromUser(asString(payload['message']) ?? '')
      case 'item_completed': {
        if (!this.enriched) break
        const item = asObject(payload['item'])
        if (item && asString(item['type']) === 'CommandExecution') return this.scriptCommand(item)
        // Only the user's turn is not already a response_item of its own; the rest are echoes.
        return item && asString(item['type']) === 'UserMessage' ? this.heardFromUser(textContent(item['content'], '') ?? '') : []
      }
      case 'error':
      case 'stream_error':
      case 'warning':
        if (!this.enriched) break
        return [{ event: 'warning', code: `codex-${messageType.replace('_', '-')}`, message: asString(payload['message']) ?? '' }]
    }
    if (this.enriched && knowsRecord(CODEX_ROLLOUT_VOCABULARY, 'event_msg', messageType)) return []
    return [this.opaque(raw, 'event_msg', messageType, lineNumber)]
  }

  /**
   * A command a code-mode script ran (`tools.exec_command(…)`, 0.169.0): no response_item holds it,
   * only this echo, whose id is no call awaiting its answer. Read as the `exec_command` call it was,
   * with its result. Every other command's echo repeats a call already read, and gives nothing.
   */
  private scriptCommand(item: JsonObject): Emission[] {
    const id = asString(item['id']) ?? ''
    if (this.scripts.size === 0 || this.unanswered.has(id)) return []
    const argv = asArray(item['command'])?.filter((word): word is string => typeof word === 'string') ?? []
    // Codex runs `cmd` as `bash -lc <cmd>`: the line the script gave is the last word.
    const input = argv.length === 3 && /^-l?c$/.test(argv[1] as string) ? { cmd: argv[2] } : { command: argv }
    const exitCode = asI64(item['exit_code']) ?? null
    return [...this.toolRequested(id, 'exec_command', input), toolResult(id, exitCode === null ? null : exitCode !== 0, item['aggregated_output'] ?? null, exitCode)]
  }

  /** The user's words, once per turn however many records repeat them. */
  private heardFromUser(text: string): Emission[] {
    if (this.heard.has(text)) return []
    this.heard.add(text)
    return [{ event: 'injection', text, origin: 'user' }]
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
      const used = this.enriched ? mostUsedWindow(limits) : { utilization: asF64(asObject(limits['primary'])?.['used_percent']) ?? null, resetsAt: null }
      events.push({
        event: 'rate_limit',
        info: {
          status: asString(limits['rate_limit_reached_type']) ?? null,
          window: asString(limits['limit_name']) ?? asString(limits['limit_id']) ?? null,
          resets_at: used.resetsAt,
          utilization: used.utilization,
          using_overage: null,
        },
      })
    }
    // Enriched, a report with nothing new (no totals, or the same again) is read and holds nothing.
    if (events.length === 0 && !this.enriched) events.push(opaqueLine(raw, 'event_msg', 'token_count', lineNumber))
    return events
  }
}

/**
 * The account's binding limit in a token report: of the primary window (five hours) and the
 * secondary (a week), the one more used, as a fraction. Codex reports `used_percent` from 0 to 100;
 * `utilization` is a fraction, as Claude Code's `rate_limit_event` writes it.
 */
function mostUsedWindow(limits: JsonObject): { utilization: number | null; resetsAt: number | null } {
  let best: { utilization: number | null; resetsAt: number | null } = { utilization: null, resetsAt: null }
  for (const key of ['primary', 'secondary']) {
    const window = asObject(limits[key])
    const percent = window ? asF64(window['used_percent']) : undefined
    if (percent === undefined || (best.utilization !== null && percent / 100 <= best.utilization)) continue
    best = { utilization: percent / 100, resetsAt: (window && asI64(window['resets_at'])) ?? null }
  }
  return best
}

/** A built-in item's status as an error flag: failed is an error, completed is not, anything else is unknown. */
function statusFailed(payload: JsonObject): boolean | null {
  const status = asString(payload['status'])
  return status === 'failed' || status === 'incomplete' ? true : status === 'completed' ? false : null
}

/**
 * The times a rollout's turns report, one `task_complete` each. A session of several prompts took
 * their durations added up (the wait for the user between them is no part of the run's); its time
 * to first token is its one turn's, and a session of several has none (which turn's would it be?).
 * Where a started turn never completed, or completed without a time, the run's is unknown.
 */
class TurnTimes {
  private completes = 0
  private total: number | null = 0
  private ttft: number | null = null

  completed(durationMs: number | undefined, ttftMs: number | undefined): void {
    this.completes += 1
    this.total = this.total === null || durationMs === undefined ? null : this.total + durationMs
    this.ttft = ttftMs ?? null
  }

  // A completion whose start the record did not name is still a turn; a start never completed is a hole.
  duration(started: number): number | null {
    return this.completes >= started ? this.total : null
  }

  firstToken(started: number): number | null {
    return this.completes === 1 && started <= 1 ? this.ttft : null
  }
}
