import { claudeResultFailed } from '../../../adapters/claude/background-result.js'
import { CLAUDE_ADAPTER_ID } from '../../../adapters/claude/declaration.js'
import { CLAUDE_TOOL_OPERATIONS } from '../../../adapters/claude/operations.js'
import { CLAUDE_STREAM_JSON_VOCABULARY, startsWorkflow } from '../../../adapters/claude/stream-json-vocabulary.js'
import { classifyCall } from '../../../adapters/shared/operations.js'
import { meaningOf } from '../../../adapters/shared/vocabulary.js'
import { digestLine } from '../../events/digest.js'
import { utf8Length } from '../rust-format.js'
import { inputObject, joinedArgv, subjectsFromInput, unnamedPrograms } from './call.js'
import { CallsElsewhere } from './calls-elsewhere.js'
import type { IrEmitter } from './emitter.js'
import { KeptShells } from './kept-shell.js'
import { sessionFolder } from './path-forms.js'
import { runOutcomeScalars } from './run-outcome.js'
import {
  boolAt,
  compact,
  countAt,
  f64At,
  i64At,
  mcpServersAt,
  namesAt,
  objectAt,
  pluginsAt,
  resultFields,
  textAt,
  u64At,
  type JsonObject,
} from './json.js'
import type { AdapterRef, IrEventBody, ModelUsage, RefusedCalls, RunOutcome, SessionStart, StreamClose, ToolCall, ToolResult } from './types.js'
import { VENDOR_CLOSURE_MARKERS } from './types.js'
import { DenialLedger } from './denials.js'

/** This reader, and the Claude Code version it was written against (upstream's pin). */
export const CLAUDE_CODE_STREAM_JSON: AdapterRef = { name: 'claude-code/stream-json', written_against: ['2.1.238'] }

function sessionStart(value: unknown): SessionStart {
  return {
    model: textAt(value, 'model'),
    permissionMode: textAt(value, 'permissionMode'),
    apiKeySource: textAt(value, 'apiKeySource'),
    harnessVersion: textAt(value, 'claude_code_version'),
    outputStyle: textAt(value, 'output_style'),
    cwd: textAt(value, 'cwd'),
    tools: namesAt(value, 'tools'),
    // Not stated on this wire: a row scoped to operations is `unk` here, honestly.
    availableOperations: null,
    slashCommands: namesAt(value, 'slash_commands'),
    skills: namesAt(value, 'skills'),
    agents: namesAt(value, 'agents'),
    plugins: pluginsAt(value),
    mcpServers: mcpServersAt(value),
  }
}

function runOutcome(value: unknown): RunOutcome {
  const usage = objectAt(value, 'usage')
  const models = objectAt(value, 'modelUsage')
  let modelUsage: Record<string, ModelUsage> | null = null
  if (models) {
    modelUsage = {}
    for (const model of Object.keys(models)) {
      const entry = models[model]
      modelUsage[model] = {
        inputTokens: u64At(entry, 'inputTokens'),
        outputTokens: u64At(entry, 'outputTokens'),
        cacheReadInputTokens: u64At(entry, 'cacheReadInputTokens'),
        cacheCreationInputTokens: u64At(entry, 'cacheCreationInputTokens'),
        costUsd: f64At(entry, 'costUSD'),
      }
    }
  }
  return {
    ...runOutcomeScalars(value),
    // A list's length where the list is there: `[]` is 0, absent is "did not say".
    permissionDenials: countAt(value, 'permission_denials'),
    subagentsSpawned: u64At(objectAt(value, 'subagent_stats'), 'spawned'),
    usage: usage
      ? {
          inputTokens: u64At(usage, 'input_tokens'),
          outputTokens: u64At(usage, 'output_tokens'),
          cacheReadInputTokens: u64At(usage, 'cache_read_input_tokens'),
          cacheCreationInputTokens: u64At(usage, 'cache_creation_input_tokens'),
          // The billed figure from the API's breakdown, never the live estimate.
          thinkingTokens: u64At(objectAt(usage, 'output_tokens_details'), 'thinking_tokens'),
          iterations: countAt(usage, 'iterations'),
          speed: textAt(usage, 'speed'),
          serviceTier: textAt(usage, 'service_tier'),
        }
      : null,
    modelUsage,
  }
}

function toolCall(block: unknown, cwd: string | null): ToolCall | null {
  const name = textAt(block, 'name')
  if (name === null) return null
  const input = inputObject((block as JsonObject)['input'])
  // Departs from upstream, which leaves `operations` empty on this wire: the adapter's Claude Code
  // table classifies the call, so a row over operations judges the file as it judges its
  // conversion (one answer per transcript) instead of passing a run whose shell calls it cannot see.
  const classified = classifyCall(CLAUDE_TOOL_OPERATIONS, name, input)
  const subjects = subjectsFromInput(input)
  for (const subject of classified.subjects) if (!subjects.includes(subject)) subjects.push(subject)
  return {
    callId: textAt(block, 'id'),
    name,
    operations: classified.operations,
    subjects,
    input,
    joinedArgv: joinedArgv(input),
    // Upstream's wire carries no operations at all: nothing claims to have classified the call.
    unclassified: false,
    unnamedPrograms: unnamedPrograms(subjects),
    shellStart: '',
    writtenFiles: null,
    cwd,
    otherSubjects: null,
  }
}

/**
 * Whether the Claude Code vocabulary says the record carries no call (departs from upstream, which
 * makes every record it does not map opaque): such a record yields no IR event and is read, not
 * unread, so it never makes an absence undecidable.
 */
function carriesNoCall(type: string | null, subtype: string | null): boolean {
  const meaning = type === null ? undefined : meaningOf(CLAUDE_STREAM_JSON_VOCABULARY, type, subtype)
  return meaning !== undefined && 'carriesNoToolCall' in meaning
}

/** Whether a content block of `record` is one the vocabulary says carries no call (an image, redacted thinking). */
function inertBlock(record: 'assistant' | 'user', block: string | null): boolean {
  const meaning = block === null ? undefined : CLAUDE_STREAM_JSON_VOCABULARY.records[`${record}/${block}`]
  return meaning !== undefined && 'carriesNoToolCall' in meaning
}

function toolResult(block: unknown, fields: JsonObject): ToolResult {
  const recorded = (block as JsonObject)['content']
  const content = typeof recorded === 'string' ? recorded : recorded === null || recorded === undefined ? null : compact(recorded)
  return {
    callId: textAt(block, 'tool_use_id'),
    isError: claudeResultFailed(boolAt(block, 'is_error'), fields),
    contentBytes: content === null ? 0 : utf8Length(content),
    content,
    fields,
  }
}

/** A server tool's result block (`web_search_tool_result`…): its error is a content object typed `*_error`. */
function serverToolResult(block: unknown): ToolResult {
  const recorded = (block as JsonObject)['content']
  const content = typeof recorded === 'string' ? recorded : recorded === null || recorded === undefined ? null : compact(recorded)
  return {
    callId: textAt(block, 'tool_use_id'),
    isError: (textAt(recorded, 'type') ?? '').endsWith('_error'),
    contentBytes: content === null ? 0 : utf8Length(content),
    content,
    fields: {},
  }
}

/**
 * Claude Code `stream-json` lines in, IR events out: one line is zero or more IR events (an
 * assistant line with a text block and two tool calls is three), and a line that yields nothing
 * recognisable is recorded opaque with the digest of its raw bytes. Unknown fields are ignored.
 *
 * Mirrors upstream's reader (aep `trace-spec/src/adapter.rs`) except where the adapter's Claude
 * Code vocabulary and tool table decide, so that checking a file and checking its conversion give
 * one answer: calls carry the table's operations; a record or block the vocabulary says carries no
 * call (compact_boundary, stream_event, control records, an image, redacted thinking) and a
 * prompt's own text yield nothing instead of an opaque event; `server_tool_use` is a call and its
 * `*_tool_result` a result.
 */
export class StreamJsonIrReader {
  readonly adapter = CLAUDE_CODE_STREAM_JSON
  readonly closureMarkers = VENDOR_CLOSURE_MARKERS
  private readonly keptShells = new KeptShells()
  /** The folder the last `init` said the session opened in: where its calls' relative paths start. */
  private sessionCwd: string | null = null

  constructor(private readonly emitter: IrEmitter) {}

  pushValue(value: unknown, sourceLine: number, raw: string): void {
    const timestamp = textAt(value, 'timestamp')
    const type = textAt(value, 'type')
    const subtype = textAt(value, 'subtype')
    const before = this.emitter.count
    // Parts read on purpose as nothing: a prompt's text, an image, redacted thinking.
    let quiet = 0
    const emit = (body: IrEventBody) => this.emitter.emit(body, sourceLine, timestamp)
    const opaque = (eventType: string | null, eventSubtype: string | null): IrEventBody => ({
      family: 'opaque',
      opaque: { eventType, subtype: eventSubtype, digest: digestLine(raw), vendorLine: null },
    })

    if (startsWorkflow(value)) {
      this.subagentsUnseen += 1
      // Its agents run from here on: any later event may come after their calls.
      this.callsElsewhere.placeAt(before)
    }
    if (type === 'system' && subtype === 'init') {
      this.sessionCwd = sessionFolder(textAt(value, 'cwd'))
      emit({ family: 'session_start', start: sessionStart(value) })
    }
    else if (type === 'system' && subtype === 'thinking_tokens') {
      emit({ family: 'thinking_estimate', estimatedTokens: u64At(value, 'estimated_tokens'), estimatedTokensDelta: i64At(value, 'estimated_tokens_delta') })
    } else if (type === 'rate_limit_event') {
      const info = (value as JsonObject)['rate_limit_info']
      emit({
        family: 'rate_limit',
        state: {
          status: textAt(info, 'status'),
          limitType: textAt(info, 'rateLimitType'),
          utilization: f64At(info, 'utilization'),
          isUsingOverage: boolAt(info, 'isUsingOverage'),
          resetsAt: i64At(info, 'resetsAt'),
        },
      })
    } else if (type === 'assistant') {
      const requestId = textAt(value, 'request_id')
      const parentCallId = textAt(value, 'parent_tool_use_id')
      // A subagent's request: the `result` record's usage sums the main conversation's alone.
      if (parentCallId !== null) this.subagentsRequesting.add(parentCallId)
      const message = objectAt(value, 'message')
      const usage = objectAt(message, 'usage')
      this.emitter.request({
        sourceLine,
        requestId,
        model: textAt(message, 'model'),
        inputTokens: u64At(usage, 'input_tokens'),
        outputTokens: u64At(usage, 'output_tokens'),
        cacheReadInputTokens: u64At(usage, 'cache_read_input_tokens'),
        cacheCreationInputTokens: u64At(usage, 'cache_creation_input_tokens'),
        // The blocks follow on this same line, so the line itself joins them to the request.
        events: [],
      })
      const blocks = message?.['content']
      if (Array.isArray(blocks)) {
        for (const block of blocks) {
          const declared = textAt(block, 'type')
          if (declared === 'text') emit({ family: 'assistant_text', text: textAt(block, 'text') ?? '', requestId, parentCallId })
          else if (declared === 'thinking') emit({ family: 'assistant_thinking', text: textAt(block, 'thinking') ?? '' })
          else if (declared === 'tool_use' || declared === 'server_tool_use') {
            const call = toolCall(block, this.sessionCwd)
            if (call) this.keptShells.place(call, CLAUDE_ADAPTER_ID)
            emit(call ? { family: 'tool_call', call } : opaque(declared, textAt(block, 'subtype')))
          } else if (declared !== null && declared.endsWith('_tool_result')) emit({ family: 'tool_result', result: serverToolResult(block) })
          else if (inertBlock('assistant', declared)) quiet += 1
          else emit(opaque(declared, textAt(block, 'subtype')))
        }
      }
    } else if (type === 'user') {
      const synthetic = boolAt(value, 'isSynthetic') ?? false
      // The per-tool fields sit on the user event, beside the content, not inside the block.
      const fields = resultFields(value)
      const content = objectAt(value, 'message')?.['content']
      if (typeof content === 'string' && synthetic) emit({ family: 'synthetic_injection', text: content })
      else if (typeof content === 'string') quiet += 1
      else if (Array.isArray(content)) {
        for (const block of content) {
          const declared = textAt(block, 'type')
          if (declared === 'tool_result') emit({ family: 'tool_result', result: toolResult(block, fields) })
          else if (declared === 'text' && synthetic) emit({ family: 'synthetic_injection', text: textAt(block, 'text') ?? '' })
          // A prompt's text or image is read: it is the user speaking, and holds no call.
          else if (declared === 'text' || inertBlock('user', declared)) quiet += 1
          else emit(opaque(declared, textAt(block, 'subtype')))
        }
      }
    } else if (type === 'result') {
      const listed = (value as JsonObject)['permission_denials']
      if (Array.isArray(listed)) this.denials.listed(listed.map((entry) => textAt(entry, 'tool_use_id')))
      emit({ family: 'run_outcome', outcome: runOutcome(value) })
    } else if (type === 'system' && subtype === 'permission_denied') this.denials.listed([textAt(value, 'tool_use_id')])
    else if (!carriesNoCall(type, subtype)) emit(opaque(type, subtype))

    // A recognised envelope that yielded nothing is still a record: nothing vanishes, unless the
    // vocabulary lists it (it was read, and holds nothing a check could count).
    if (this.emitter.count === before && quiet === 0 && !carriesNoCall(type, subtype)) emit(opaque(type, subtype))
  }

  /**
   * Subagents whose calls the stream does not carry: Claude Code streams every Agent's calls, but a
   * Workflow (2.1, `system/task_started` with `task_type: local_workflow`) runs its agents apart,
   * their calls in the workflow's own transcript directory.
   */
  subagentsUnseen = 0
  /** Where the workflows' calls, which the stream does not hold, may have begun. */
  readonly callsElsewhere = new CallsElsewhere()
  /** Nor does a process outlive a call unseen: Claude Code's background shells are read through calls it streams. */
  readonly processesUnseen = 0
  /** Read as it is, this is Claude Code's stream, whose tools call no tools apart from it. */
  readonly nestedUnseen = 0
  /** Each assistant record is one request, marked by its message id. */
  readonly requestsUnmarked = 0
  /** The calls whose subagents made requests here: the `result` record's `usage` leaves theirs out (see `subagent-requests.ts`). */
  private readonly subagentsRequesting = new Set<string>()
  get subagentUsageApart(): number {
    return this.subagentsRequesting.size
  }
  /** Each such subagent's last request may be missing: a foreground agent's answer reaches the run as its call's result. */
  get subagentRequestsUnseen(): number {
    return this.subagentsRequesting.size
  }

  /** The calls the harness refused: its `result` records' `permission_denials` and its `system/permission_denied` records. */
  get refusedCalls(): RefusedCalls {
    return this.denials.refusedCalls()
  }
  private readonly denials = new DenialLedger()

  /** A vendor transcript ends where the run did when its last event is the terminal record. */
  closure(): StreamClose | null {
    if (this.subagentsUnseen > 0) return null
    const last = this.emitter.lastEvent
    if (last?.family !== 'run_outcome') return null
    return { witness: 'terminal_record', events: null, reason: last.outcome.subtype }
  }
}
