import { APPROVAL_DENIED, HOOK_REFUSED, refusalWarning } from '../../src/events/refusal-warnings.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { asArray, asBoolean, asObject, asString, asU64, isObject, millisToIso, type JsonObject } from '../shared/fields.js'
import { OpeningBuffer } from '../shared/opening.js'
import { EDITOR_COMMANDS, type ToolOperationTable } from '../shared/operations.js'
import { opaqueLine, opaqueValue } from '../shared/opaque.js'
import { CallClassifier, sessionEnded, sessionStart, textContent, timed, toolResult } from '../shared/session.js'
import { TypedSessions } from '../shared/typed-sessions.js'
import { argumentsObject } from '../shared/arguments.js'
import { DriftWatch, meaningOf } from '../shared/vocabulary.js'
import { lastExitCode, type ExitCodeLine } from '../shared/exit-code-line.js'
import type { LineFormat } from '../formats.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { DSH_VOCABULARY } from './dsh-vocabulary.js'
import { DSH_TYPING } from './terminal-sessions.js'

export const DSH_ADAPTER_ID = 'dsh'

/** DeepSeek harness tools by operation (names as dsh's tool list spells them; unverified against a live run). */
export const DSH_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    read: 'file.read',
    read_file: 'file.read',
    write: 'file.write',
    write_file: 'file.write',
    edit: 'file.edit',
    edit_file: 'file.edit',
    ls: 'dir.list',
    list_dir: 'dir.list',
    glob: 'dir.list',
    grep: 'search',
    bash: 'shell',
    shell: 'shell',
    run_shell: 'shell',
    pwsh: 'shell',
    // Arbitrary JavaScript the model wrote; the tools it calls are recorded again as code/ptc dispatches.
    run_code: 'shell',
    terminal_open: 'shell',
    terminal_send: 'shell',
    read_image: 'file.read',
    str_replace_editor: 'file.edit',
    lsp: 'search',
    web_fetch: 'web.read',
    web_search: 'web.read',
    todo_write: 'task.todo',
    todo: 'task.todo',
    task: 'subagent.spawn',
    subagent: 'subagent.spawn',
    subagent_fork: 'subagent.spawn',
    subagent_codex: 'subagent.spawn',
    send_message: 'subagent.spawn',
    workflow: 'subagent.spawn',
    ralph: 'subagent.spawn',
    skill: 'skill.load',
  },
  prefixes: [['mcp__', 'mcp.call']],
  inert: {
    ask_user_question: 'asks the user a question',
    present: 'shows files to the user',
    job_output: 'reads the output of a background job an earlier call started',
    job_kill: 'stops a background job an earlier call started',
    job_list: 'lists the agent’s own background jobs',
    terminal_read: 'reads a terminal an earlier terminal_open started',
    terminal_signal: 'signals a terminal an earlier terminal_open started',
    terminal_list: 'lists the agent’s own terminals',
    terminal_close: 'closes one of the agent’s own terminals',
    interrupt_agent: 'stops a subagent’s turn',
    list_agents: 'lists the agent’s own subagents',
    create_goal: 'sets the session goal',
    get_goal: 'reads the session goal',
    update_goal: 'records progress on the session goal',
    exit_plan_mode: 'leaves plan mode',
    report: 'returns a subagent’s report to its parent',
  },
  operationByArgument: { str_replace_editor: EDITOR_COMMANDS },
  pathKeys: ['path', 'file_path', 'filePath'],
  commandKeys: ['command', 'cmd'],
}

/**
 * A DeepSeek harness session log (`deepseek-session-jsonl`, versions 0–4): a `session` header,
 * then `{type, seq, time, data}` events — read raw or in Reef's lifted form (data beside type).
 * Tool results changed shape in v4 (`role: "tool"`); both are read.
 */
export class DshProjector implements RecordProjector {
  private readonly opening = new OpeningBuffer()
  private readonly requested = new Set<string>()
  // Each approval asked, by its id: the call it is about.
  private readonly approvalCalls = new Map<string, string>()
  private readonly calls = new CallClassifier(DSH_TOOL_OPERATIONS, DSH_ADAPTER_ID)
  // The calls that ran a shell line: their results name a failed command's exit code.
  private readonly shellCalls = new Set<string>()
  private readonly terminals = new TypedSessions(DSH_TOOL_OPERATIONS, DSH_TYPING)
  private readonly drift = new DriftWatch(DSH_VOCABULARY)
  private model: string | null = null
  private turns = 0
  // Each model call is a step: the run's model turns, as `num_turns` counts them (a dsh turn is the user's).
  private steps = 0
  private lastEnd: string | null | undefined
  // A turn started and not yet ended: a log that stops here was cut short, whatever turns ended before.
  private turnOpen = false

  constructor(private readonly seam: SeamOptions) {}

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    return this.opening.pass([opaqueLine(raw, null, null, lineNumber)])
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const type = asString(record['type']) ?? ''
    const data = asObject(record['data']) ?? record
    if (type === 'session' && !this.opening.pending && 'createdAt' in record) {
      this.drift.sawVersion(asU64(record['version'])?.toString())
      const at = millisToIso(record['createdAt'])
      this.opening.begin({ ...sessionStart(DSH_ADAPTER_ID, this.seam, { session_id: asString(record['id']) ?? null, cwd: asString(record['cwd']) ?? this.seam.cwd ?? null }), ...(at ? { at } : {}) })
      return []
    }
    const at = millisToIso(record['time'])
    if (type === 'request/header' || type === 'request/context') {
      const header = asObject(data['header']) ?? data
      const config = asObject(header['config']) ?? header
      this.model = asString(config['model']) ?? asString(data['model']) ?? this.model
      const start = this.opening.pending
      if (start) {
        start.model = this.model
        const tools = asArray(header['tools'])
        if (tools) start.offered_tools = tools.map((tool) => (isObject(tool) ? (asString(tool['name']) ?? '') : typeof tool === 'string' ? tool : '')).filter((name) => name.length > 0)
        if (type === 'request/header') return this.opening.release()
      }
      return []
    }
    if (type === 'step/start') this.steps += 1
    // The call an approval asks about, for the decision that names only the approval.
    if (type === 'approval/asked' || type === 'approval/request') {
      const approval = asString(data['id'])
      const callId = asString(data['callId'])
      if (approval !== undefined && callId !== undefined) this.approvalCalls.set(approval, callId)
    }
    // A record the vocabulary says carries nothing (chunks, settings, bookkeeping) is read and gives nothing.
    const meaning = meaningOf(DSH_VOCABULARY, type)
    if (meaning !== undefined && 'carriesNoToolCall' in meaning) return []
    const events = this.map(type, data, raw, lineNumber)
    const out = timed(events, at)
    return type === 'assistant/message' ? this.opening.release(out) : this.opening.pass(out)
  }

  finish(): Emission[] {
    // The log holds every approval decision and hook result, and each refusal is a warning: none
    // is listed here, and the count is known.
    const end = this.lastEnd === undefined || this.turnOpen ? [] : [sessionEnded({ num_turns: this.steps, terminal_reason: this.lastEnd, subtype: this.lastEnd, permission_denials: [] })]
    return this.opening.release([...end, ...this.drift.finish()])
  }

  closure(): CloseReason | null {
    return null
  }

  private map(type: string, data: JsonObject, raw: string, lineNumber: number): Emission[] {
    switch (type) {
      case 'turn/start':
        this.turns += 1
        this.turnOpen = true
        return [{ event: 'turn.started', turn: asU64(data['turn']) ?? this.turns, frame_digest: null }]
      case 'turn/end': {
        this.turnOpen = false
        const reason = asObject(data['reason'])
        this.lastEnd = (reason && asString(reason['kind'])) ?? null
        return [{ event: 'turn.ended', turn: asU64(data['turn']) ?? this.turns, stop_reason: this.lastEnd }]
      }
      case 'user/message': {
        const source = asObject(data['source'])
        return [{ event: 'injection', text: textContent(data['content']) ?? '', origin: (source && asString(source['kind'])) ?? 'user' }]
      }
      case 'system/message': {
        const message = asObject(data['message']) ?? data
        return [{ event: 'injection', text: textContent(message['content']) ?? '', origin: 'system' }]
      }
      case 'steering/message':
        return [{ event: 'injection', text: textContent(data['content']) ?? textContent(asObject(data['message'])?.['content']) ?? '', origin: 'steering' }]
      case 'compaction/summary':
        return [{ event: 'injection', text: textContent(data['summary']) ?? '', origin: 'compaction' }]
      case 'assistant/message':
        return this.assistant(data, lineNumber)
      case 'tool/call': {
        const callId = asString(data['callId']) ?? ''
        if (this.requested.has(callId)) return []
        this.requested.add(callId)
        const name = asString(data['name']) ?? ''
        const input = argumentsObject(data['arguments'], 'arguments')
        return this.call(callId, name, input)
      }
      case 'tool/result':
        return this.toolResult(data, raw, lineNumber)
      case 'tool/code-dispatch-start':
      case 'tool/ptc-dispatch-start':
        return this.subCall(data)
      case 'tool/code-dispatch':
      case 'tool/ptc-dispatch':
        // The settled sub-call; its start record may be absent (a log cut short), so it can request too.
        return [...this.subCall(data), this.result(asString(data['subCallId']) ?? '', asBoolean(data['isError']) ?? null, data['content'] ?? data['output'] ?? null)]
      case 'hook/result':
        return hookRefusal(data)
      case 'approval/decided': {
        const outcome = asString(data['outcome']) ?? ''
        const approval = asString(data['id'])
        const callId = approval === undefined ? undefined : this.approvalCalls.get(approval)
        return /denied|rejected/.test(outcome) ? [refusalWarning(APPROVAL_DENIED, `approval ${approval ?? ''} ${outcome}`.trim(), callId)] : []
      }
      default:
        if (type.startsWith('approval/') && /denied|rejected/.test(type)) {
          return [refusalWarning(APPROVAL_DENIED, asString(data['reason']) ?? asString(data['callId']) ?? type, asString(data['callId']))]
        }
        this.drift.sawUnknown(type)
        return [opaqueLine(raw, type, null, lineNumber)]
    }
  }

  /** A call's events, classified by the tool table (a line typed into a shell terminal read as its shell's); a shell call is remembered for its result. */
  private call(callId: string, name: string, input: unknown): Emission[] {
    // A line typed into a shell terminal names what that shell ran.
    const events = this.terminals.called(callId, name, input, this.calls.call(callId, name, input))
    const requested = events.at(-1)
    if (requested?.event === 'tool.requested' && requested.operations?.includes('shell') === true) this.shellCalls.add(callId)
    return events
  }

  /**
   * A call's result. dsh's bash tool writes `isError: false` for a command that exited nonzero and
   * says so in its output's last `[exit code: N]` line (`shuf: command not found` … `[exit code:
   * 127]`): a nonzero exit is a failed shell call, as on every other harness, and its code is kept.
   */
  private result(callId: string, flag: boolean | null, content: unknown): Emission {
    this.terminals.answered(callId, content)
    const exitCode = this.shellCalls.has(callId) ? lastExitCode(textContent(content), EXIT_CODE_LINE) : null
    return toolResult(callId, exitCode !== null && exitCode !== 0 ? true : flag, content ?? null, exitCode)
  }

  /** A tool call a run_code program made (`subCallId`, arguments as an object), once per id. */
  private subCall(data: JsonObject): Emission[] {
    const callId = asString(data['subCallId']) ?? ''
    if (this.requested.has(callId)) return []
    this.requested.add(callId)
    return this.call(callId, asString(data['name']) ?? '', argumentsObject(data['arguments'], 'arguments'))
  }

  private assistant(data: JsonObject, lineNumber: number): Emission[] {
    const message = asObject(data['message']) ?? {}
    const source = asObject(message['source'])
    const model = (source && asString(source['model'])) ?? this.model
    const events: Emission[] = []
    for (const block of asArray(message['content']) ?? []) {
      const object = (isObject(block) ? block : {}) as JsonObject
      const kind = asString(object['type']) ?? ''
      if (kind === 'text') events.push({ event: 'text', text: asString(object['text']) ?? '', request_id: null })
      else if (kind === 'reasoning') events.push({ event: 'thinking', text: asString(object['text']) ?? asString(object['reasoning']) ?? '', request_id: null })
      else if (kind === 'tool-call') {
        const callId = asString(object['id']) ?? asString(object['toolCallId']) ?? ''
        this.requested.add(callId)
        const name = asString(object['name']) ?? asString(object['toolName']) ?? ''
        const input = argumentsObject(object['arguments'] ?? object['input'], 'arguments')
        events.push(...this.call(callId, name, input))
      } else {
        this.drift.sawUnknown('assistant/message.content', kind)
        events.push(opaqueValue(block, 'assistant/message.content', kind, lineNumber))
      }
    }
    // Each assistant/message is one model request: it is counted as one even where no usage was written.
    const usage = asObject(data['usage']) ?? {}
    events.push({
      event: 'usage',
      request_id: null,
      model,
      usage: {
        input_tokens: asU64(usage['inputTokens']) ?? null,
        output_tokens: asU64(usage['outputTokens']) ?? null,
        cache_read_input_tokens: asU64(usage['cachedInputTokens']) ?? asU64(usage['cacheReadTokens']) ?? null,
        thinking_tokens: asU64(usage['reasoningTokens']) ?? null,
      },
    })
    return events
  }

  private toolResult(data: JsonObject, raw: string, lineNumber: number): Emission[] {
    const message = asObject(data['message'])
    // A web-UI round writes the result flat: `{callId, content, isError}` beside the turn and step.
    if (!message && typeof data['callId'] === 'string') return [this.result(data['callId'], asBoolean(data['isError']) ?? null, data['content'] ?? null)]
    if (!message) {
      this.drift.sawUnknown('tool/result.shape')
      return [opaqueLine(raw, 'tool/result.shape', null, lineNumber)]
    }
    // v4: the message is the result.
    if (asString(message['role']) === 'tool') {
      return [this.result(asString(message['toolCallId']) ?? '', asBoolean(message['isError']) ?? null, message['content'])]
    }
    // v0–v3: the result is a block inside a user message, with its own error flag.
    const events: Emission[] = []
    for (const block of asArray(message['content']) ?? []) {
      const object = (isObject(block) ? block : {}) as JsonObject
      if (asString(object['type']) === 'tool-result') {
        events.push(this.result(asString(object['toolCallId']) ?? '', asBoolean(object['isError']) ?? null, object['content']))
      } else {
        this.drift.sawUnknown('tool/result.content', asString(object['type']) ?? '')
        events.push(opaqueValue(block, 'tool/result.content', asString(object['type']) ?? '', lineNumber))
      }
    }
    if (events.length > 0) return events
    this.drift.sawUnknown('tool/result.shape')
    return [opaqueLine(raw, 'tool/result.shape', null, lineNumber)]
  }
}

// The line dsh's bash tool ends a nonzero exit's output with.
const EXIT_CODE_LINE: ExitCodeLine = { marker: '[exit code: ', pattern: /^\[exit code: (-?\d+)\]$/gm }

/** dsh's session log (`DSH_HOME/sessions/<cwd-slug>/session-<id>/session.jsonl`; v4: `session.v4.jsonl`). */
export const dshSessionFormat: LineFormat = {
  kind: 'lines',
  // Our own mapping (no upstream projection to match byte for byte): numbers by value.
  numbers: 'value',
  name: 'deepseek-session-jsonl',
  aliases: ['dsh-session-jsonl'],
  adapter: DSH_ADAPTER_ID,
  summary: 'DeepSeek harness (dsh) session log, versions 0–4',
  extension: '.jsonl',
  vocabulary: DSH_VOCABULARY,
  createProjector: (seam) => new DshProjector(seam),
  sniff: (record) =>
    // The header: `createdAt` (ms) where pi's has an ISO `timestamp`; older logs write no `delegationDepth`.
    (record['type'] === 'session' && typeof record['version'] === 'number' && 'createdAt' in record && !('timestamp' in record)) ||
    (typeof record['type'] === 'string' && (record['type'] as string).includes('/') && typeof record['seq'] === 'number' && isObject(record['data']) && isObject((record['data'] as JsonObject)['message'])),
}

/** A hook that blocked a call before it ran (`decision: block`, dsh 0.1): the call's result is its error. */
function hookRefusal(data: JsonObject): Emission[] {
  const decision = asString(data['decision'])
  if (decision !== 'block' && decision !== 'deny') return []
  const point = asString(data['point'])
  return [refusalWarning(HOOK_REFUSED, asString(data['stderrSummary']) ?? asString(data['reason']) ?? (point ? `the ${point} hook blocked the call` : 'a hook blocked the call'))]
}
