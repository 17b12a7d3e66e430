import { sha256Hex } from '../../events/digest.js'
import { EVENT_FORMAT } from '../../events/format.js'
import { parseJsonLossless } from '../../events/json.js'
import { joinedArgv, inputObject, subjectsFromInput, unnamedPrograms } from './call.js'
import { CallsElsewhere } from './calls-elsewhere.js'
import type { IrEmitter } from './emitter.js'
import { KeptShells } from './kept-shell.js'
import { sessionFolder } from './path-forms.js'
import { DenialLedger, type CensusCounts } from './denials.js'
import { runOutcomeScalars } from './run-outcome.js'
import {
  boolAt,
  compact,
  f64At,
  i64At,
  isObject,
  mcpServersAt,
  namesAt,
  objectAt,
  pluginsAt,
  resultFields,
  textAt,
  u64At,
  type JsonObject,
} from './json.js'
import type { AdapterRef, ModelUsage, RefusedCalls, RunOutcome, RunUsage, SessionStart, StreamClose, ToolCall, ToolResult } from './types.js'
import { EVENT_STREAM_CLOSURE_MARKERS, STREAM_CLOSED_EVENT } from './types.js'
import { utf8Length } from '../rust-format.js'
import { NESTED_CALLS_UNSEEN } from '../../events/nested-calls-unseen.js'
import { REQUESTS_UNMARKED } from '../../events/requests-unmarked.js'
import { SUBAGENT_REQUESTS_UNSEEN, SUBAGENT_USAGE_APART } from '../../events/subagent-requests.js'
import { PROCESS_INPUT_UNSEEN } from '../../events/process-input-unseen.js'
import { SUBAGENT_CALLS_UNSEEN } from '../../events/subagent-calls-unseen.js'
import { unclassifiedToolOf } from '../../events/unclassified-tool.js'

/** This reader, named after the seam it reads rather than any vendor. */
export const METAHARNESS_EVENT_STREAM: AdapterRef = { name: 'metaharness/event-stream', written_against: [EVENT_FORMAT] }

/**
 * The events recognised and projected into no IR family: understood, so nothing about them is
 * uncertain. An unknown name is the opposite, and goes opaque.
 */
export const CONTROL_PLANE_EVENTS: ReadonlySet<string> = new Set([
  'step.entered',
  'step.left',
  'turn.started',
  'turn.ended',
  'tool.decided',
  'command.result',
  'warning',
  'auth.expired',
])

function censusCounts(census: JsonObject | null): CensusCounts | null {
  if (census === null) return null
  return { allowed: u64At(census, 'allowed'), denied: u64At(census, 'denied'), replaced: u64At(census, 'replaced'), abstained: u64At(census, 'abstained') }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []
}

function runUsage(usage: JsonObject): RunUsage {
  return {
    inputTokens: u64At(usage, 'input_tokens'),
    outputTokens: u64At(usage, 'output_tokens'),
    cacheReadInputTokens: u64At(usage, 'cache_read_input_tokens'),
    cacheCreationInputTokens: u64At(usage, 'cache_creation_input_tokens'),
    thinkingTokens: u64At(usage, 'thinking_tokens'),
    iterations: u64At(usage, 'iterations'),
    speed: textAt(usage, 'speed'),
    serviceTier: textAt(usage, 'service_tier'),
  }
}

function modelUsage(value: JsonObject): Record<string, ModelUsage> | null {
  const models = objectAt(value, 'model_usage')
  if (!models) return null
  const out: Record<string, ModelUsage> = {}
  for (const model of Object.keys(models)) {
    const usage = models[model]
    out[model] = {
      inputTokens: u64At(usage, 'input_tokens'),
      outputTokens: u64At(usage, 'output_tokens'),
      cacheReadInputTokens: u64At(usage, 'cache_read_input_tokens'),
      cacheCreationInputTokens: u64At(usage, 'cache_creation_input_tokens'),
      costUsd: f64At(usage, 'cost_usd'),
    }
  }
  return out
}

function sessionStart(value: JsonObject): SessionStart {
  return {
    model: textAt(value, 'model'),
    permissionMode: textAt(value, 'permission_mode'),
    // The seam's `credential_source` is the IR's `api_key_source`: who paid.
    apiKeySource: textAt(value, 'credential_source'),
    harnessVersion: textAt(value, 'harness_version'),
    outputStyle: textAt(value, 'output_style'),
    cwd: textAt(value, 'cwd'),
    tools: namesAt(value, 'offered_tools'),
    availableOperations: namesAt(value, 'available_operations'),
    slashCommands: namesAt(value, 'slash_commands'),
    skills: namesAt(value, 'skills'),
    agents: namesAt(value, 'agents'),
    plugins: pluginsAt(value),
    mcpServers: mcpServersAt(value),
  }
}

function toolCall(value: JsonObject, unclassifiedTools: ReadonlySet<string>, cwd: string | null): ToolCall | null {
  const name = textAt(value, 'name')
  if (name === null) return null
  const input = inputObject(value['input'])
  const stated = strings(value['subjects'])
  const operations = strings(value['operations'])
  // The wire's answer where there is one; the path argument where a stream predates it.
  const subjects = stated.length > 0 ? stated : subjectsFromInput(input)
  return {
    callId: textAt(value, 'call_id'),
    name,
    operations,
    subjects,
    input,
    joinedArgv: joinedArgv(input),
    unclassified: operations.length === 0 && unclassifiedTools.has(name),
    unnamedPrograms: unnamedPrograms(subjects),
    shellStart: '',
    writtenFiles: null,
    cwd,
    otherSubjects: null,
  }
}

function toolResult(value: JsonObject): ToolResult {
  const recorded = value['content']
  const content = typeof recorded === 'string' ? recorded : recorded === null || recorded === undefined ? null : compact(recorded)
  let fields = resultFields(value)
  // The vendor's own record wins; a structured content answers only where there is none.
  if (Object.keys(fields).length === 0 && isObject(recorded)) fields = recorded
  return {
    callId: textAt(value, 'call_id'),
    // Absent stays absent on this wire: it may carry any vendor.
    isError: boolAt(value, 'is_error'),
    contentBytes: content !== null ? utf8Length(content) : (u64At(value, 'bytes') ?? null),
    content,
    fields,
  }
}

/**
 * `metaharness.event/1` lines in, IR events out, one line at a time. The caller checks the format
 * tag on every line; this reads a line's JSON leniently (`null` is absence) and emits zero or one
 * IR event. Control-plane events emit nothing; an unknown name is opaque. The two things upstream
 * gathers over the whole stream first — the seam's denials and the closing statement — are kept as
 * a ledger of denials (`denials.ts`) and two small records, and resolved when the stream ends.
 */
export class MetaharnessIrReader {
  private readonly denials = new DenialLedger()
  private lines = 0
  private lastLineClose: StreamClose | null = null
  private attestation: StreamClose | null = null
  private unattributed: number[] = []
  /** Tools an `unclassified_tool` warning named: their later calls' empty operations mean "unknown". */
  private readonly unclassifiedTools = new Set<string>()
  /** How many `subagent_calls_unseen` warnings the stream held: subagents whose calls are elsewhere. */
  subagentsUnseen = 0
  /** How many `process_input_unseen` warnings it held: processes whose input is elsewhere. */
  processesUnseen = 0
  /** How many `nested_calls_unseen` warnings it held: calls whose code called tools elsewhere. */
  nestedUnseen = 0
  /** How many `requests_unmarked` warnings it held: its usage records may each sum several requests. */
  requestsUnmarked = 0
  /** How many `subagent_usage_apart` warnings it held: subagents whose requests the terminal record's usage leaves out. */
  subagentUsageApart = 0
  /** How many `subagent_requests_unseen` warnings it held: subagents whose last request it may not show. */
  subagentRequestsUnseen = 0
  /** The calls the harness refused, once the stream has ended (the seam's, the terminal records', the warnings'). */
  get refusedCalls(): RefusedCalls {
    return this.denials.refusedCalls()
  }
  /** Where calls the stream does not hold (a subagent's, code's, a process's input) may have begun. */
  readonly callsElsewhere = new CallsElsewhere()
  /** The adapter that wrote the session last opened: whether its shell keeps its folder is its own. */
  private sessionAdapter: string | null = null
  /** The folder the session last opened said it opened in: where its calls' relative paths start. */
  private sessionCwd: string | null = null
  private readonly keptShells = new KeptShells()

  constructor(private readonly emitter: IrEmitter) {}

  /** How many tagged lines were read. */
  get lineCount(): number {
    return this.lines
  }

  /**
   * Counts a tagged line passed over unread (see `pass-over.ts`): it is a line, and not the last
   * one, so it is no closing statement either.
   */
  passedLine(): void {
    this.lines += 1
    this.lastLineClose = null
  }

  /** Counts a decision passed over that denied nothing: the seam decided, so a run's denials are its. */
  passedDecision(): void {
    this.denials.decision(null)
  }

  /**
   * Reads one tagged line's JSON object; `raw` is its text (or what prints it), for the digest of
   * an opaque line.
   */
  pushValue(value: JsonObject, sourceLine: number, raw?: string | (() => string)): void {
    this.lines += 1
    const name = value['event']
    const at = textAt(value, 'at')
    this.lastLineClose = null
    const before = this.emitter.count

    switch (name) {
      case 'session.started': {
        this.emitter.emit({ family: 'session_start', start: sessionStart(value) }, sourceLine, at)
        this.sessionAdapter = textAt(value, 'adapter')
        this.sessionCwd = sessionFolder(textAt(value, 'cwd'))
        const hermetic = objectAt(value, 'hermetic')
        this.denials.attested(textAt(hermetic, 'decisions'))
        if (this.attestation === null && hermetic !== null && hermetic['stream_complete'] === true) {
          this.attestation = { witness: 'attestation', events: u64At(hermetic, 'stream_events'), reason: textAt(hermetic, 'stream_reason') }
        }
        break
      }
      case 'session.ended':
        this.emitter.emit({ family: 'run_outcome', outcome: this.runOutcome(value) }, sourceLine, at)
        break
      case 'text':
        this.emitter.emit({ family: 'assistant_text', text: textAt(value, 'text') ?? '', requestId: textAt(value, 'request_id'), parentCallId: textAt(value, 'parent_call_id') }, sourceLine, at)
        break
      case 'thinking':
        this.emitter.emit({ family: 'assistant_thinking', text: textAt(value, 'text') ?? '' }, sourceLine, at)
        break
      case 'thinking.estimate':
        this.emitter.emit({ family: 'thinking_estimate', estimatedTokens: u64At(value, 'estimate'), estimatedTokensDelta: i64At(value, 'delta') }, sourceLine, at)
        break
      case 'injection':
        this.emitter.emit({ family: 'synthetic_injection', text: textAt(value, 'text') ?? '' }, sourceLine, at)
        break
      case 'tool.requested': {
        const call = toolCall(value, this.unclassifiedTools, this.sessionCwd)
        // A request with no name is a call nobody can select: opaque, so counts stay honest.
        if (call) {
          this.keptShells.place(call, this.sessionAdapter)
          this.callsElsewhere.call(call.callId, this.emitter.emit({ family: 'tool_call', call }, sourceLine, at))
        } else this.emitOpaqueLine('tool.requested', value, sourceLine, at, raw)
        break
      }
      case 'tool.result':
        this.emitter.emit({ family: 'tool_result', result: toolResult(value) }, sourceLine, at)
        break
      case 'rate_limit': {
        const info = value['info']
        this.emitter.emit(
          {
            family: 'rate_limit',
            state: {
              status: textAt(info, 'status'),
              limitType: textAt(info, 'window'),
              utilization: f64At(info, 'utilization'),
              isUsingOverage: boolAt(info, 'using_overage'),
              resetsAt: i64At(info, 'resets_at'),
            },
          },
          sourceLine,
          at,
        )
        break
      }
      case 'opaque':
        // The vendor's own type and digest, citable against the retained vendor transcript.
        this.emitter.emit(
          {
            family: 'opaque',
            opaque: { eventType: textAt(value, 'vendor_type'), subtype: textAt(value, 'vendor_subtype'), digest: textAt(value, 'digest') ?? this.lineDigest(value, raw), vendorLine: u64At(value, 'source_line') },
          },
          sourceLine,
          at,
        )
        break
      case 'usage': {
        const usage = objectAt(value, 'usage')
        this.emitter.request({
          sourceLine,
          requestId: textAt(value, 'request_id'),
          model: textAt(value, 'model'),
          inputTokens: u64At(usage, 'input_tokens'),
          outputTokens: u64At(usage, 'output_tokens'),
          cacheReadInputTokens: u64At(usage, 'cache_read_input_tokens'),
          cacheCreationInputTokens: u64At(usage, 'cache_creation_input_tokens'),
          // A usage line closes a request: the model output since the previous one was its.
          events: this.unattributed,
        })
        this.unattributed = []
        break
      }
      case STREAM_CLOSED_EVENT:
        this.lastLineClose = { witness: 'closing_event', events: u64At(value, 'events'), reason: textAt(value, 'reason') }
        break
      default:
        if (typeof name === 'string' && CONTROL_PLANE_EVENTS.has(name)) {
          if (name === 'tool.decided') this.recordDecision(value)
          else if (name === 'warning') {
            const code = textAt(value, 'code')
            this.denials.warning(code, textAt(value, 'call_id'))
            const tool = unclassifiedToolOf(code, textAt(value, 'message'))
            if (tool !== undefined) this.unclassifiedTools.add(tool)
            if (code === SUBAGENT_CALLS_UNSEEN) this.subagentsUnseen += 1
            else if (code === PROCESS_INPUT_UNSEEN) this.processesUnseen += 1
            else if (code === NESTED_CALLS_UNSEEN) this.nestedUnseen += 1
            else if (code === REQUESTS_UNMARKED) this.requestsUnmarked += 1
            else if (code === SUBAGENT_USAGE_APART) this.subagentUsageApart += 1
            else if (code === SUBAGENT_REQUESTS_UNSEEN) this.subagentRequestsUnseen += 1
            this.callsElsewhere.warning(code, textAt(value, 'message'))
          }
          break
        }
        this.emitOpaqueLine(typeof name === 'string' ? name : null, value, sourceLine, at, raw)
    }

    if (this.emitter.wantsRequestEvents && this.emitter.count > before) {
      const event = this.emitter.lastEvent
      if (event && (event.family === 'assistant_text' || event.family === 'assistant_thinking' || event.family === 'tool_call')) this.unattributed.push(event.index)
    }
  }

  /** The statement that closes the stream: `stream.closed` as the last line, else the attestation. */
  closure(): StreamClose | null {
    return this.lastLineClose ?? this.attestation
  }

  readonly adapter = METAHARNESS_EVENT_STREAM
  readonly closureMarkers = EVENT_STREAM_CLOSURE_MARKERS

  private recordDecision(value: JsonObject): void {
    this.denials.decision(textAt(objectAt(value, 'decision'), 'decision') === 'deny' ? textAt(value, 'call_id') : null)
  }

  private runOutcome(value: JsonObject): RunOutcome {
    const census = censusCounts(objectAt(value, 'census'))
    const vendor = Array.isArray(value['permission_denials']) ? (value['permission_denials'] as unknown[]).map((entry) => textAt(entry, 'tool_use_id')) : null
    this.denials.listed(vendor, census)
    const usage = objectAt(value, 'usage')
    const reader = this
    return {
      ...runOutcomeScalars(value),
      // Resolved against every `tool.decided` and refusal in the stream, so read when it has ended.
      get permissionDenials(): number | null {
        return reader.denials.count(census, vendor)
      },
      subagentsSpawned: u64At(value, 'subagents_spawned'),
      usage: usage ? runUsage(usage) : null,
      modelUsage: modelUsage(value),
    }
  }

  private lineDigest(value: JsonObject, raw: string | (() => string) | undefined): string {
    // serde_json keeps `1.0` as written; re-reading the raw text losslessly keeps the digest exact.
    if (raw === undefined) return sha256Hex(compact(value))
    return sha256Hex(compact(parseJsonLossless(typeof raw === 'string' ? raw : raw())))
  }

  private emitOpaqueLine(eventType: string | null, value: JsonObject, sourceLine: number, at: string | null, raw: string | (() => string) | undefined): void {
    this.emitter.emit({ family: 'opaque', opaque: { eventType, subtype: null, digest: this.lineDigest(value, raw), vendorLine: null } }, sourceLine, at)
  }
}
