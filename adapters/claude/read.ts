import { APPROVAL_DENIED, refusalWarning } from '../../src/events/refusal-warnings.js'
import { writeSortedJson } from '../../src/events/json.js'
import { subagentRequestsUnseenWarning, subagentUsageApartWarning } from '../../src/events/subagent-requests.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { asArray, asBoolean, asF64, asI64, asObject, asString, asU64, isObject, stringList, type JsonObject } from '../shared/fields.js'
import { isEnriched } from '../shared/hermetic.js'
import { OpeningBuffer } from '../shared/opening.js'
import { opaqueLine, opaqueValue } from '../shared/opaque.js'
import type { ToolOperationTable } from '../shared/operations.js'
import { CallClassifier, sessionEnded, sessionStart, timed, toolRequested } from '../shared/session.js'
import { UnseenNestedCalls } from '../shared/nested-calls.js'
import { UnseenSubagents } from '../shared/subagent.js'
import { DriftWatch, meaningOf, type RecordVocabulary } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { claudeResultFailed } from './background-result.js'
import { CLAUDE_ADAPTER_ID } from './declaration.js'
import { CLAUDE_TOOL_OPERATIONS } from './operations.js'
import { CLAUDE_SESSION_VOCABULARY } from './session-vocabulary.js'
import { CLAUDE_STREAM_JSON_VOCABULARY, startsWorkflow } from './stream-json-vocabulary.js'

/** Which of Claude Code's two records is being read. */
export type ClaudeVariant = 'stream-json' | 'session'

/**
 * Who wrote a stream in Claude Code's stream-json shape: Claude Code itself, or a harness that
 * prints the same records (Qwen Code's `--output-format stream-json`) with its own tools, its own
 * record vocabulary and its own version field in `system/init`.
 */
export interface StreamJsonDialect {
  readonly adapter: string
  readonly tools: ToolOperationTable
  readonly vocabulary: RecordVocabulary
  /** The `system/init` field naming the harness version. */
  readonly versionKey: string
  /** The projection read when the seam names none: Claude Code's own reproduces upstream's by default. */
  readonly projection: 'upstream' | 'enriched'
  /**
   * Whether a background subagent's calls stay out of the stream: Qwen Code 0.24 announces one
   * with `system/task_started` and writes its calls only to the subagent's own session file, so a
   * stream that announced one does not prove it holds every call (Claude Code streams them).
   */
  readonly backgroundAgentsUnseen?: boolean
  /**
   * Tools whose code calls other tools the stream does not show, with where the harness records
   * those calls (Qwen Code 0.24's `exec` in code mode: the stream shows the `exec` alone).
   */
  readonly nestedCallTools?: Readonly<Record<string, string>>
  /**
   * Whether `input_tokens` counts the cache reads too: Qwen Code 0.24 copies Gemini's
   * `promptTokenCount` there (`total_tokens` is input plus output), where Claude Code's excludes
   * them. The stream's figures are then normalised to Claude Code's convention, every reader's.
   */
  readonly inputCountsCacheReads?: boolean
  /**
   * Whether the `result` record's `usage` leaves a subagent's requests out: Claude Code 2.1.328
   * sums the main conversation's alone there (its `modelUsage` and cost count every agent's),
   * where Qwen Code 0.24.4 sums them all (both measured on the binaries, `test/e2e/subagents.test.ts`).
   */
  readonly usageLeavesSubagentsOut?: boolean
}

const CLAUDE_CODE_DIALECT: StreamJsonDialect = {
  adapter: CLAUDE_ADAPTER_ID,
  tools: CLAUDE_TOOL_OPERATIONS,
  vocabulary: CLAUDE_STREAM_JSON_VOCABULARY,
  versionKey: 'claude_code_version',
  projection: 'upstream',
  usageLeavesSubagentsOut: true,
}

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/**
 * The `toolDenialKind`s of a call Claude Code refused before it ran (2.1.328): its user or a
 * permission rule said no, or auto mode blocked it or could not decide. An `interrupted` or
 * `cancelled` call is not among them: it may have begun.
 */
const REFUSED_KINDS = new Set(['user-rejected', 'permission-rule', 'automode-blocked', 'automode-unavailable', 'automode-parsing-error'])

/** The vendor's own words for a credential that aged out (upstream's phrases, matched case-insensitively). */
const AUTH_EXPIRY_PHRASES = ['session has expired', 'session expired', 'failed to refresh access token', 'please run /login']

function blocksOf(message: JsonObject): unknown[] {
  return asArray(message['content']) ?? []
}

function textOf(block: unknown, key: string): string {
  return isObject(block) ? (asString(block[key]) ?? '') : ''
}

/** Tokens as the vendor reported them; never computed (upstream's `usage`). */
export function claudeUsage(value: unknown): Usage {
  const usage = asObject(value) ?? {}
  const details = asObject(usage['output_tokens_details'])
  const iterations = asArray(usage['iterations'])
  return {
    input_tokens: asU64(usage['input_tokens']) ?? null,
    output_tokens: asU64(usage['output_tokens']) ?? null,
    cache_read_input_tokens: asU64(usage['cache_read_input_tokens']) ?? null,
    cache_creation_input_tokens: asU64(usage['cache_creation_input_tokens']) ?? null,
    service_tier: asString(usage['service_tier']) ?? null,
    thinking_tokens: details ? (asU64(details['thinking_tokens']) ?? null) : null,
    iterations: iterations ? iterations.length : null,
    speed: asString(usage['speed']) ?? null,
    cost_usd: null,
  }
}

function modelUsage(record: JsonObject): Record<string, Usage> | null {
  const entries = asObject(record['modelUsage'])
  if (!entries) return null
  const out: Record<string, Usage> = {}
  for (const [model, raw] of Object.entries(entries)) {
    const value = asObject(raw) ?? {}
    out[model] = {
      input_tokens: asU64(value['inputTokens']) ?? null,
      output_tokens: asU64(value['outputTokens']) ?? null,
      cache_read_input_tokens: asU64(value['cacheReadInputTokens']) ?? null,
      cache_creation_input_tokens: asU64(value['cacheCreationInputTokens']) ?? null,
      service_tier: null,
      thinking_tokens: null,
      iterations: null,
      speed: null,
      cost_usd: asF64(value['costUSD']) ?? null,
    }
  }
  return out
}

function refsOf<K extends string>(value: unknown, keys: readonly K[]): Record<K, string | null>[] | null {
  const entries = asArray(value)
  if (!entries) return null
  return entries.map((entry) => {
    const object = asObject(entry) ?? {}
    const out = {} as Record<K, string | null>
    for (const key of keys) out[key] = asString(object[key]) ?? null
    return out
  })
}

function candidateTexts(record: JsonObject): string[] {
  const texts: string[] = []
  for (const key of ['result', 'error']) {
    const text = asString(record[key])
    if (text !== undefined) texts.push(text)
  }
  const error = asObject(record['error'])
  const errorMessage = error ? asString(error['message']) : undefined
  if (errorMessage !== undefined) texts.push(errorMessage)
  const message = asObject(record['message'])
  if (message) {
    for (const block of blocksOf(message)) {
      if (!isObject(block)) continue
      for (const key of ['text', 'content']) {
        const text = asString(block[key])
        if (text !== undefined) texts.push(text)
      }
    }
  }
  return texts
}

/**
 * The texts in which the harness itself reports a failure (enriched): a failed `result`, an
 * assistant line the harness wrote for an API error, a `system/api_error`, an `auth_status`
 * error. Never a tool's result or a prompt: a file that says "Session expired" is not the
 * harness's credential expiring.
 */
function harnessFailureTexts(record: JsonObject): string[] {
  const type = asString(record['type'])
  const texts: string[] = []
  const push = (value: unknown) => {
    const text = asString(value)
    if (text !== undefined) texts.push(text)
  }
  if (type === 'result' && (record['is_error'] === true || (asString(record['subtype']) ?? '').startsWith('error'))) {
    push(record['result'])
    for (const error of asArray(record['errors']) ?? []) push(error)
  }
  if (type === 'assistant' && (record['isApiErrorMessage'] === true || asString(record['error']) !== undefined)) {
    const message = asObject(record['message'])
    if (message) for (const block of blocksOf(message)) push(isObject(block) ? block['text'] : undefined)
  }
  if (type === 'system' && asString(record['subtype']) === 'api_error') {
    const error = asObject(record['error'])
    push(record['error'])
    if (error) push(error['message'])
    push(record['content'])
  }
  if (type === 'auth_status') push(record['error'])
  return texts
}

/** How a terminal `result` record says the run ended, in `stream.closed`'s words. */
function closeReasonOf(record: JsonObject): CloseReason {
  const subtype = asString(record['subtype']) ?? ''
  if (subtype.startsWith('error_max')) return 'budget'
  if (record['is_error'] === true || subtype.startsWith('error')) return 'error'
  return 'completed'
}

/**
 * Claude Code's stream-json (`-p --output-format stream-json --verbose`) and its session file,
 * read one record at a time. Reproduces metaharness's Claude projection: every record becomes at
 * least one event, an unmapped record or content block is `opaque`, `at` is the vendor's own
 * timestamp. Enriched, it also classifies calls into operations and subjects and reads assistant
 * lines that share `message.id` as one message (one `usage` event for it, not one per line).
 */
export class ClaudeProjector implements RecordProjector {
  private credentialSource: string | null = null
  private lastWasResult: CloseReason | null = null
  private readonly enriched: boolean
  private readonly opening = new OpeningBuffer()
  private sessionSeen = false
  private readonly vocabulary: RecordVocabulary
  private readonly drift: DriftWatch
  private readonly classifier: CallClassifier
  // Whether the record being read had a part the vocabulary says carries no call (emitted as nothing).
  private quietlyRead = false
  // The usage of the message being read, held until a line of another message arrives.
  private pendingUsage: { id: string; emission: Emission } | undefined
  // Background subagents whose calls this stream does not hold (see the dialect).
  private readonly subagents = new UnseenSubagents('its own session file')
  // The calls whose subagents made requests here (enriched): each is warned of once.
  private readonly subagentsRequesting = new Set<string>()
  private readonly nested: UnseenNestedCalls

  constructor(
    private readonly seam: SeamOptions,
    private readonly variant: ClaudeVariant,
    private readonly dialect: StreamJsonDialect = CLAUDE_CODE_DIALECT,
  ) {
    this.enriched = isEnriched(seam, dialect.projection)
    this.vocabulary = variant === 'session' ? CLAUDE_SESSION_VOCABULARY : dialect.vocabulary
    this.drift = new DriftWatch(this.vocabulary)
    this.classifier = new CallClassifier(dialect.tools, dialect.adapter)
    this.nested = new UnseenNestedCalls(dialect.nestedCallTools ?? {})
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    this.lastWasResult = null
    return this.opening.pass([...this.flushUsage(), opaqueLine(raw, null, null, lineNumber)])
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const at = asString(record['timestamp'])
    const type = asString(record['type'])
    const flushed = this.flushBefore(record, type)
    const subtype = asString(record['subtype']) ?? null
    this.quietlyRead = false
    if (this.enriched) this.drift.sawVersion(asString(record['version']) ?? (type === 'system' && subtype === 'init' ? asString(record[this.dialect.versionKey]) : undefined))
    const events: Emission[] = this.authExpiry(record, lineNumber)
    const mapped = this.mapRecord(record, type, lineNumber)
    events.push(...mapped.events)
    if (events.length === 0 && !mapped.held) {
      // Enriched: a record the vocabulary says carries no call is read even though it emits nothing,
      // and so is one whose only parts were such (an image); a record that should have carried
      // events and yielded none stays opaque.
      const meaning = type === undefined ? undefined : meaningOf(this.vocabulary, type, subtype)
      const read = this.enriched && mapped.unread !== true && (this.quietlyRead || (meaning !== undefined && 'carriesNoToolCall' in meaning))
      if (!read) {
        if (this.enriched && mapped.unread !== true) this.drift.sawUnknown(type ?? null, subtype)
        events.push(opaqueLine(raw, type ?? null, subtype, lineNumber))
      }
    }
    // Enriched reads closure as upstream's direct reader does: the run ended when the last record
    // that yielded anything is the result, so a trailing `session_state_changed: idle` (read, and
    // holding nothing) does not reopen it.
    if (type === 'result' || !this.enriched || events.length > 0 || (mapped.held === true && type === 'assistant')) this.lastWasResult = type === 'result' ? closeReasonOf(record) : null
    const out = [...flushed, ...timed(events, at)]
    if (this.variant === 'session') return this.openSession(record, out)
    return out
  }

  finish(): Emission[] {
    return this.opening.release([...this.flushUsage(), ...(this.enriched ? this.drift.finish() : [])])
  }

  closure(): CloseReason | null {
    return this.variant === 'stream-json' ? this.nested.closure(this.subagents.closure(this.lastWasResult)) : null
  }

  // A session file has no opening record: the session starts at the first record that names it,
  // and its working directory and version arrive on the first user or assistant line.
  private openSession(record: JsonObject, events: Emission[]): Emission[] {
    const sessionId = asString(record['sessionId'])
    if (!this.sessionSeen && sessionId !== undefined) {
      this.sessionSeen = true
      const at = asString(record['timestamp'])
      this.opening.begin({ ...sessionStart(this.dialect.adapter, this.seam, { session_id: sessionId }), ...(at ? { at } : {}) })
    }
    const start = this.opening.pending
    if (start && asString(record['cwd']) !== undefined) {
      start.cwd = asString(record['cwd']) ?? null
      start.harness_version = asString(record['version']) ?? start.harness_version ?? null
      start.permission_mode = asString(record['permissionMode']) ?? null
      return this.opening.release(events)
    }
    return this.opening.pass(events)
  }

  // Split-message bookkeeping (enriched only): the held usage is released when any record other
  // than a line of the same message, a partial-message delta or a rate-limit notice arrives.
  private flushBefore(record: JsonObject, type: string | undefined): Emission[] {
    if (!this.pendingUsage) return []
    if (type === 'assistant') {
      const message = asObject(record['message'])
      const id = message ? asString(message['id']) : undefined
      if (id !== undefined && id === this.pendingUsage.id) return []
      return this.flushUsage()
    }
    // Partial-message deltas and rate-limit notices interleave with one message's lines.
    if (type === 'stream_event' || type === 'rate_limit_event') return []
    return this.flushUsage()
  }

  private flushUsage(): Emission[] {
    const pending = this.pendingUsage
    this.pendingUsage = undefined
    return pending ? [pending.emission] : []
  }

  /** A record's events; `held` while a message's lines are gathered, `unread` where what it holds cannot be read as nothing. */
  private mapRecord(record: JsonObject, type: string | undefined, lineNumber: number): { events: Emission[]; held?: boolean; unread?: boolean } {
    switch (type) {
      case 'system': {
        const subtype = asString(record['subtype'])
        if (subtype === 'init' && this.variant === 'stream-json') return { events: [this.sessionStarted(record)] }
        if (subtype === 'init' && this.enriched) return { events: this.additionalInit(record) }
        if (subtype === 'thinking_tokens') return { events: thinkingEstimate(record) }
        if (startsWorkflow(record)) return { events: this.workflowStarted(record) }
        if (subtype === 'task_started' && this.dialect.backgroundAgentsUnseen) return { events: this.backgroundTask(record) }
        return { events: [] }
      }
      case 'assistant':
        return this.assistant(record, lineNumber)
      case 'user':
        return { events: this.user(record, lineNumber) }
      case 'rate_limit_event':
        return { events: rateLimit(record) }
      case 'result':
        if (this.variant === 'stream-json') return { events: [this.sessionEnded(record)] }
        // In a session file `result` is a workflow journal entry (a cached step result), never the run's end.
        this.quietlyRead = this.enriched
        return { events: [] }
      case 'stream_event':
        // Enriched: a partial-message delta; the assistant line that follows carries the whole block.
        return { events: [], held: this.enriched }
      case 'api-request-blob':
        // A message a request sent (2.1.328): the context and the results the conversation holds.
        // One the model wrote could hold a call no assistant record does: that stays unread.
        return { events: [], unread: asString(asObject(record['message'])?.['role']) === 'assistant' }
      default:
        return { events: [] }
    }
  }

  private sessionStarted(record: JsonObject): Emission {
    this.credentialSource = asString(record['apiKeySource']) ?? null
    return sessionStart(this.dialect.adapter, this.seam, {
      harness_version: asString(record[this.dialect.versionKey]) ?? null,
      session_id: asString(record['session_id']) ?? null,
      model: asString(record['model']) ?? null,
      // Claude Code writes `permissionMode`; Qwen Code, `permission_mode`.
      permission_mode: asString(record['permissionMode']) ?? asString(record['permission_mode']) ?? null,
      credential_source: this.credentialSource,
      output_style: asString(record['output_style']) ?? null,
      cwd: asString(record['cwd']) ?? null,
      offered_tools: stringList(record['tools']),
      slash_commands: stringList(record['slash_commands']),
      skills: stringList(record['skills']),
      agents: stringList(record['agents']),
      plugins: refsOf(record['plugins'], ['name', 'source', 'version'] as const),
      mcp_servers: refsOf(record['mcp_servers'], ['name', 'status'] as const),
    })
  }

  private sessionEnded(record: JsonObject): Emission {
    const stats = asObject(record['subagent_stats'])
    const denials = asArray(record['permission_denials'])
    return sessionEnded({
      is_error: asBoolean(record['is_error']) ?? null,
      subtype: asString(record['subtype']) ?? null,
      stop_reason: asString(record['stop_reason']) ?? null,
      terminal_reason: asString(record['terminal_reason']) ?? null,
      api_error_status: asString(record['api_error_status']) ?? null,
      num_turns: asU64(record['num_turns']) ?? null,
      duration_ms: asU64(record['duration_ms']) ?? null,
      duration_api_ms: asU64(record['duration_api_ms']) ?? null,
      ttft_ms: asU64(record['ttft_ms']) ?? null,
      time_to_request_ms: asU64(record['time_to_request_ms']) ?? null,
      total_cost_usd: asF64(record['total_cost_usd']) ?? null,
      permission_denials: denials
        ? denials.map((entry) => {
            const object = asObject(entry) ?? {}
            return {
              tool_name: asString(object['tool_name']) ?? null,
              tool_use_id: asString(object['tool_use_id']) ?? null,
              tool_input: object['tool_input'] ?? null,
            }
          })
        : null,
      subagents_spawned: stats ? (asU64(stats['spawned']) ?? null) : null,
      usage: record['usage'] === undefined ? null : this.usageOf(record['usage']),
      model_usage: modelUsage(record),
    })
  }

  /** The vendor's figures, in Claude Code's convention (input without the cache reads). */
  private usageOf(value: unknown): Usage {
    const usage = claudeUsage(value)
    const { input_tokens: input, cache_read_input_tokens: cached } = usage
    if (!this.dialect.inputCountsCacheReads || input === null || input === undefined || cached === null || cached === undefined) return usage
    // `claudeUsage` made it for this call alone: set in place, one shape for the writer.
    usage.input_tokens = Math.max(0, input - cached)
    return usage
  }

  private assistant(record: JsonObject, lineNumber: number): { events: Emission[]; held?: boolean } {
    const message = asObject(record['message'])
    if (!message) return { events: [] }
    const requestId = asString(record['request_id']) ?? asString(record['requestId']) ?? null
    const events: Emission[] = []
    // A subagent's message, streamed between the run's own (enriched): its text is its report, not
    // the run's answer; its last request may not be streamed; and Claude Code's `result` leaves its
    // requests out of its usage.
    const parentCallId = this.enriched ? asString(record['parent_tool_use_id']) : undefined
    if (parentCallId !== undefined && !this.subagentsRequesting.has(parentCallId)) {
      this.subagentsRequesting.add(parentCallId)
      events.push(subagentRequestsUnseenWarning(parentCallId))
      if (this.dialect.usageLeavesSubagentsOut === true) events.push(subagentUsageApartWarning(parentCallId))
    }
    for (const block of blocksOf(message)) events.push(...this.contentBlock(block, requestId, lineNumber, parentCallId))
    if (this.enriched && record['isApiErrorMessage'] === true) {
      const text = blocksOf(message).map((block) => textOf(block, 'text')).join('\n')
      events.push({ event: 'warning', code: 'api-error', message: text })
    }
    if (message['usage'] === undefined) return { events }
    const model = asString(message['model']) ?? null
    const figures = this.usageOf(message['usage'])
    const id = asString(message['id'])
    if (!this.enriched || id === undefined) return { events: [...events, { event: 'usage', request_id: requestId, model, usage: figures }] }
    // One message split over several lines: the usage is the message's, reported once, last line's figures.
    const at = asString(record['timestamp'])
    // Each a literal: a spread copy would give the held usage a shape of its own for the writer.
    const emission: Emission = at === undefined ? { event: 'usage', request_id: requestId, model, usage: figures } : { event: 'usage', request_id: requestId, model, usage: figures, at }
    this.pendingUsage = { id, emission }
    return { events, held: true }
  }

  private contentBlock(block: unknown, requestId: string | null, lineNumber: number, parentCallId: string | undefined): Emission[] {
    const kind = isObject(block) ? (asString(block['type']) ?? '') : ''
    switch (kind) {
      case 'text':
        return [parentCallId === undefined ? { event: 'text', text: textOf(block, 'text'), request_id: requestId } : { event: 'text', text: textOf(block, 'text'), request_id: requestId, parent_call_id: parentCallId }]
      case 'thinking':
        return [{ event: 'thinking', text: textOf(block, 'thinking'), request_id: requestId }]
      case 'tool_use': {
        const object = block as JsonObject
        const name = asString(object['name']) ?? ''
        const input = object['input'] ?? null
        const callId = asString(object['id']) ?? ''
        return this.enriched ? this.nested.watch(this.classifier.call(callId, name, input)) : [toolRequested(callId, name, input)]
      }
      default:
        return this.enriched ? this.enrichedBlock(block, kind, 'assistant', lineNumber) : [opaqueValue(block, 'assistant', kind, lineNumber)]
    }
  }

  // Blocks upstream's projection leaves opaque, read where the vocabulary says what they are.
  private enrichedBlock(block: unknown, kind: string, record: 'assistant' | 'user', lineNumber: number): Emission[] {
    const object = isObject(block) ? block : {}
    if (record === 'assistant' && kind === 'server_tool_use') {
      return this.classifier.call(asString(object['id']) ?? '', asString(object['name']) ?? '', object['input'] ?? null)
    }
    if (record === 'assistant' && kind.endsWith('_tool_result')) {
      const value = object['content']
      const failed = isObject(value) && (asString(value['type']) ?? '').endsWith('_error')
      return [{ event: 'tool.result', call_id: asString(object['tool_use_id']) ?? '', is_error: failed, content: value ?? null, bytes: value === undefined ? null : byteLength(value), tool_use_result: null }]
    }
    const meaning = this.vocabulary.records[`${record}/${kind}`]
    if (meaning !== undefined && 'carriesNoToolCall' in meaning) {
      this.quietlyRead = true
      return []
    }
    this.drift.sawUnknown(record, kind)
    return [opaqueValue(block, record, kind, lineNumber)]
  }

  // A workflow began: it runs its agents in the background, and their calls go to the workflow's
  // own transcript directory, never to this stream (2.1.328: only task_progress notes of them).
  private workflowStarted(record: JsonObject): Emission[] {
    this.quietlyRead = true
    return [this.subagents.announce(asString(record['tool_use_id']) ?? '?', 'the workflow’s own transcript directory')]
  }

  // A background task began. A subagent's calls are not in this stream, so it stops proving the
  // whole run; a monitor's process is its own call, already read.
  private backgroundTask(record: JsonObject): Emission[] {
    const data = asObject(record['data']) ?? {}
    const agent = asString(data['subagent_type'])
    this.quietlyRead = true
    if (agent === undefined) return []
    return [this.subagents.announce(asString(data['tool_use_id']) ?? '?', `the ${agent} subagent's own session file`)]
  }

  // A session file that carries a `system/init` (an SDK transcript) names its version there.
  private additionalInit(record: JsonObject): Emission[] {
    this.drift.sawVersion(asString(record['claude_code_version']))
    this.quietlyRead = true
    return []
  }

  private user(record: JsonObject, lineNumber: number): Emission[] {
    const message = asObject(record['message'])
    if (!message) return []
    const origin = record['isSynthetic'] === true ? 'synthetic' : this.enriched && record['isMeta'] === true ? 'meta' : 'user'
    const sibling = record['tool_use_result'] ?? record['toolUseResult']
    const toolUseResult = sibling === undefined || sibling === null ? null : sibling
    const content = message['content']
    if (typeof content === 'string') return [{ event: 'injection', text: content, origin }]
    const items = asArray(content)
    if (!items) return []
    // A session file marks the answer to a call Claude Code refused; its stream lists the call in `permission_denials` instead.
    const refused = this.enriched && this.variant === 'session' && REFUSED_KINDS.has(asString(record['toolDenialKind']) ?? '')
    return items.flatMap((block): Emission[] => {
      const kind = isObject(block) ? (asString(block['type']) ?? '') : ''
      if (kind === 'tool_result') {
        const object = block as JsonObject
        const value = object['content']
        return [
          ...(refused ? [refusalWarning(APPROVAL_DENIED, typeof value === 'string' ? value : 'Claude Code refused the call', asString(object['tool_use_id']))] : []),
          {
            event: 'tool.result',
            call_id: asString(object['tool_use_id']) ?? '',
            // Upstream's projection keeps the flag as written; enriched reads it as the direct reader does.
            is_error: this.enriched ? claudeResultFailed(asBoolean(object['is_error']), toolUseResult) : (asBoolean(object['is_error']) ?? null),
            content: value ?? null,
            bytes: value === undefined ? null : byteLength(value),
            tool_use_result: toolUseResult,
          },
        ]
      }
      if (kind === 'text') return [{ event: 'injection', text: textOf(block, 'text'), origin }]
      return this.enriched ? this.enrichedBlock(block, kind, 'user', lineNumber) : [opaqueValue(block, 'user', kind, lineNumber)]
    })
  }

  private authExpiry(record: JsonObject, lineNumber: number): Emission[] {
    const texts = this.enriched ? harnessFailureTexts(record) : candidateTexts(record)
    const detail = texts.find((text) => {
      const lowered = text.toLowerCase()
      return AUTH_EXPIRY_PHRASES.some((phrase) => lowered.includes(phrase))
    })
    return detail === undefined ? [] : [{ event: 'auth.expired', credential_source: this.credentialSource, detail, source_line: lineNumber }]
  }
}

/** The byte count upstream records: a string's UTF-8 length, else its compact serde JSON's. */
function byteLength(content: unknown): number {
  return Buffer.byteLength(typeof content === 'string' ? content : writeSortedJson(content), 'utf8')
}

function thinkingEstimate(record: JsonObject): Emission[] {
  const estimate = asU64(record['estimated_tokens'])
  if (estimate === undefined) return []
  return [{ event: 'thinking.estimate', estimate, delta: asI64(record['estimated_tokens_delta']) ?? null }]
}

function rateLimit(record: JsonObject): Emission[] {
  const info = asObject(record['rate_limit_info'])
  if (!info) return []
  return [
    {
      event: 'rate_limit',
      info: {
        status: asString(info['status']) ?? null,
        window: asString(info['rateLimitType']) ?? null,
        resets_at: asI64(info['resetsAt']) ?? null,
        utilization: asF64(info['utilization']) ?? null,
        using_overage: asBoolean(info['isUsingOverage']) ?? null,
      },
    },
  ]
}
