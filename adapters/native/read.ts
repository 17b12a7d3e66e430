import type { CloseReason, Emission } from '../../src/events/types.js'
import { asArray, asBoolean, asObject, asString, asU64, isObject, millisToIso, stringList, type JsonObject } from '../shared/fields.js'
import type { ToolOperationTable } from '../shared/operations.js'
import { opaqueLine } from '../shared/opaque.js'
import { classifiedCall, sessionEnded, sessionStart, textContent, timed, toolResult } from '../shared/session.js'
import { argumentsObject } from '../shared/arguments.js'
import type { LineFormat } from '../formats.js'
import type { RecordProjector, SeamOptions } from '../types.js'

export const NATIVE_ADAPTER_ID = 'native'

/** Reef's native loop tools by operation (its default tool set; a graph may add others). */
export const NATIVE_TOOL_OPERATIONS: ToolOperationTable = {
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
    search: 'search',
    bash: 'shell',
    shell: 'shell',
    web_fetch: 'web.read',
    delegate: 'subagent.spawn',
    todo: 'task.todo',
  },
  pathKeys: ['path', 'file_path'],
  commandKeys: ['command', 'cmd'],
}

/** The end reasons Reef counts as a turn that ended on purpose. */
const NATIVE_END_REASONS = new Set(['completed', 'gave_up'])
// Step boundaries: structure that the events between them already show.
const BOOKKEEPING = new Set(['step/start', 'step/end'])

/**
 * Reef's native loop record (`native-jsonl`): `{type, seq, time, data}` lines, `seq` from 0 with
 * no gaps per file, a `session` header. `session.ended` is built at the end from the last
 * `turn/end`; a gap in `seq` is reported as a warning, never hidden.
 */
export class NativeProjector implements RecordProjector {
  private expectedSeq = 0
  private readonly requested = new Set<string>()
  private turns = 0
  // Each model call is a step: the run's model turns, as `num_turns` counts them (a native turn is the user's).
  private steps = 0
  private lastEnd: JsonObject | undefined
  // A turn started and not yet ended: a log that stops here was cut short, whatever turns ended before.
  private turnOpen = false

  constructor(private readonly seam: SeamOptions) {}

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    return [opaqueLine(raw, null, null, lineNumber)]
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const type = asString(record['type']) ?? ''
    const data = asObject(record['data']) ?? {}
    const events: Emission[] = []
    const seq = asU64(record['seq'])
    if (seq !== undefined) {
      if (seq !== this.expectedSeq) events.push({ event: 'warning', code: 'native-seq-gap', message: `line ${lineNumber} has seq ${seq}; the file's seq should run on from ${this.expectedSeq} without a gap` })
      this.expectedSeq = seq + 1
    }
    if (type === 'step/start') this.steps += 1
    if (!BOOKKEEPING.has(type)) {
      const mapped = this.map(type, data)
      events.push(...(mapped ?? [opaqueLine(raw, type, null, lineNumber)]))
    }
    return timed(events, millisToIso(record['time']))
  }

  finish(): Emission[] {
    const end = this.lastEnd
    if (!end || this.turnOpen) return []
    const kind = asString(end['kind']) ?? null
    return [sessionEnded({ is_error: kind === null ? null : !NATIVE_END_REASONS.has(kind), subtype: kind, terminal_reason: kind, num_turns: this.steps })]
  }

  closure(): CloseReason | null {
    return null
  }

  private map(type: string, data: JsonObject): Emission[] | undefined {
    switch (type) {
      case 'session':
        return [
          sessionStart(NATIVE_ADAPTER_ID, this.seam, {
            session_id: asString(data['session']) ?? null,
            model: asString(data['model']) ?? this.seam.model ?? null,
            cwd: asString(data['cwd']) ?? this.seam.cwd ?? null,
            offered_tools: stringList(data['tools']),
            agents: stringList(data['agents']),
          }),
        ]
      case 'turn/start':
        this.turns += 1
        this.turnOpen = true
        return [{ event: 'turn.started', turn: asU64(data['turn']) ?? this.turns, frame_digest: null }]
      case 'turn/end': {
        this.turnOpen = false
        this.lastEnd = asObject(data['reason']) ?? {}
        return [{ event: 'turn.ended', turn: asU64(data['turn']) ?? this.turns, stop_reason: asString(this.lastEnd['kind']) ?? null }]
      }
      case 'request/header': {
        const system = asString(data['system'])
        return system === undefined ? [] : [{ event: 'injection', text: system, origin: 'system' }]
      }
      case 'user/message': {
        const source = asObject(data['source'])
        return [{ event: 'injection', text: textContent(data['content']) ?? '', origin: (source && asString(source['kind'])) ?? 'user' }]
      }
      case 'request/error': {
        const error = asObject(data['error']) ?? {}
        return [{ event: 'warning', code: asString(error['code']) ?? 'MODEL_ERROR', message: asString(error['message']) ?? '' }]
      }
      case 'assistant/message':
        return this.assistant(data)
      case 'tool/call': {
        const callId = asString(data['call_id']) ?? ''
        if (this.requested.has(callId)) return []
        this.requested.add(callId)
        const name = asString(data['name']) ?? ''
        const input = argumentsObject(data['arguments'], 'arguments')
        return [classifiedCall(NATIVE_TOOL_OPERATIONS, callId, name, input)]
      }
      case 'tool/result':
        return [toolResult(asString(data['call_id']) ?? '', asBoolean(data['is_error']) ?? null, data['content'])]
      case 'hook/decision': {
        const decision = data['decision']
        const word = typeof decision === 'string' ? decision : isObject(decision) ? (asString(decision['decision']) ?? asString(decision['kind'])) : undefined
        if (word !== undefined && /deny|block|reject/.test(word)) {
          return [{ event: 'warning', code: 'hook-refused', message: (isObject(decision) ? asString(decision['reason']) : undefined) ?? `the ${asString(data['hook']) ?? ''} hook refused at ${asString(data['event']) ?? ''}` }]
        }
        return []
      }
      case 'hook/error':
        return [{ event: 'warning', code: 'hook-failed', message: asString(data['error']) ?? asString(asObject(data['error'])?.['message']) ?? 'a hook failed' }]
      default:
        return undefined
    }
  }

  private assistant(data: JsonObject): Emission[] {
    const events: Emission[] = []
    const reasoning = asString(data['reasoning_content']) ?? asString(data['reasoning']) ?? asString(data['thinking'])
    if (reasoning !== undefined && reasoning.length > 0) events.push({ event: 'thinking', text: reasoning, request_id: null })
    const content = textContent(data['content'])
    if (content !== undefined && content.length > 0) events.push({ event: 'text', text: content, request_id: null })
    for (const call of asArray(data['tool_calls']) ?? []) {
      const object = asObject(call) ?? {}
      const fn = asObject(object['function']) ?? {}
      const callId = asString(object['id']) ?? ''
      this.requested.add(callId)
      const name = asString(fn['name']) ?? ''
      const input = argumentsObject(fn['arguments'], 'arguments')
      events.push(classifiedCall(NATIVE_TOOL_OPERATIONS, callId, name, input))
    }
    // Each assistant/message is one model request: it is counted as one even where no usage was written.
    const usage = asObject(data['usage']) ?? {}
    events.push({
      event: 'usage',
      request_id: null,
      model: null,
      usage: {
        input_tokens: asU64(usage['input_tokens']) ?? asU64(usage['prompt_tokens']) ?? null,
        output_tokens: asU64(usage['output_tokens']) ?? asU64(usage['completion_tokens']) ?? null,
        cache_read_input_tokens: asU64(usage['cache_read_input_tokens']) ?? asU64(usage['cached_tokens']) ?? null,
      },
    })
    return events
  }
}

/** Reef's native loop record (`session.jsonl` + `agents/NNN-<agent>.jsonl`). */
export const nativeFormat: LineFormat = {
  kind: 'lines',
  // Our own mapping (no upstream projection to match byte for byte): numbers by value.
  numbers: 'value',
  name: 'native-jsonl',
  aliases: [],
  adapter: NATIVE_ADAPTER_ID,
  summary: "Reef's native loop record (session.jsonl, agents/NNN-<agent>.jsonl)",
  extension: '.jsonl',
  createProjector: (seam) => new NativeProjector(seam),
  sniff: (record) => typeof record['type'] === 'string' && typeof record['seq'] === 'number' && typeof record['time'] === 'number' && isObject(record['data']),
}
