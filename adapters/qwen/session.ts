import { APPROVAL_DENIED, refusalWarning } from '../../src/events/refusal-warnings.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { geminiUsage } from '../gemini/usage.js'
import { asArray, asI64, asObject, asString, asU64, isObject, type JsonObject } from '../shared/fields.js'
import { recordedNestedCall } from '../shared/nested-calls.js'
import { OpeningBuffer } from '../shared/opening.js'
import { opaqueLine, opaqueValue } from '../shared/opaque.js'
import { CallClassifier, sessionStart, textContent, timed, toolResult } from '../shared/session.js'
import { DriftWatch, meaningOf } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { QWEN_ADAPTER_ID } from './declaration.js'
import { QWEN_TOOL_OPERATIONS } from './operations.js'
import { QWEN_SESSION_VOCABULARY } from './vocabulary.js'

// `Exit Code: 2` in the text run_shell_command gives back (before 0.24 the only place it is).
const EXIT_CODE_LINE = /^Exit Code: (-?\d+)$/m

const WARNINGS: Readonly<Record<string, string>> = {
  chat_compression: 'the CLI compressed the conversation history into a summary; the calls before it ran and stay in this stream',
  rewind: 'the user rewound the conversation; the calls before the rewind ran and stay in this stream',
}

interface OpenCall {
  readonly id: string
  readonly name: string
}

/** What a `functionResponse` gave back: its `output`, its `error`, or the whole response. */
function responseContent(response: JsonObject | undefined): unknown {
  if (!response) return null
  return response['output'] ?? response['error'] ?? response
}

/** Whether the call failed: the recorded status when there is one (anything but `success`), else an `error` in the response. */
function failed(status: string | undefined, response: JsonObject | undefined): boolean | null {
  if (status !== undefined) return status !== 'success'
  if (response && 'error' in response) return true
  if (response && 'output' in response) return false
  return null
}

/** The shell's exit code: the structured `resultDisplay` 0.24 records, else the `Exit Code:` line of the text it returned. */
function exitCode(name: string, display: unknown, content: unknown): number | null {
  const structured = asObject(display)
  if (structured && asString(structured['type']) === 'shell_result') {
    const code = asI64(structured['exitCode'])
    if (code !== undefined) return code
  }
  if (QWEN_TOOL_OPERATIONS.tools[name] !== 'shell' || typeof content !== 'string') return null
  const line = EXIT_CODE_LINE.exec(content)
  return line ? Number(line[1]) : null
}

/**
 * A Qwen Code session file (`qwen-code/session-jsonl`): one `ChatRecord` per line, appended once,
 * in the order the CLI lived it. A `user` record opens a turn; an `assistant` record holds the
 * model's content as Gemini `parts` (thoughts, text, `functionCall`s) and its token counts; each
 * call's result is a `tool_result` record of its own, written when the call ended. So a call is
 * timed from the answer that asked for it to the result, both the records' own times. The opening
 * waits for the first answer so it can name the model. The file has no end marker.
 */
export class QwenSessionProjector implements RecordProjector {
  private readonly opening = new OpeningBuffer()
  private readonly classifier = new CallClassifier(QWEN_TOOL_OPERATIONS, QWEN_ADAPTER_ID)
  private readonly drift = new DriftWatch(QWEN_SESSION_VOCABULARY)
  private readonly open: OpenCall[] = []
  private began = false
  private turn = 0

  constructor(private readonly seam: SeamOptions) {
    this.drift.sawVersion(seam.harnessVersion)
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    return this.opening.pass([opaqueLine(raw, null, null, lineNumber)])
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const type = asString(record['type']) ?? null
    const subtype = asString(record['subtype']) ?? null
    const at = asString(record['timestamp'])
    this.drift.sawVersion(asString(record['version']))
    this.begin(record, at)
    if (meaningOf(QWEN_SESSION_VOCABULARY, type, subtype) === undefined) {
      this.drift.sawUnknown(type, subtype)
      return this.opening.pass(timed([opaqueLine(raw, type, subtype, lineNumber)], at))
    }
    switch (type) {
      case 'user':
        return this.opening.pass(timed(this.user(record, subtype), at))
      case 'assistant': {
        const start = this.opening.pending
        const model = asString(record['model'])
        if (start && model) start.model = model
        return this.opening.release(timed(this.answer(record, lineNumber), at))
      }
      case 'tool_result':
        return this.opening.pass(timed(this.results(record), at))
      default: {
        if (type === 'system' && subtype === 'ui_telemetry') return this.opening.pass(timed(this.nestedCall(record), at))
        const warning = subtype === null ? undefined : WARNINGS[subtype]
        return this.opening.pass(warning ? timed([{ event: 'warning', code: `qwen-${subtype?.replaceAll('_', '-')}`, message: warning }], at) : [])
      }
    }
  }

  finish(): Emission[] {
    return this.opening.release(this.drift.finish())
  }

  closure(): CloseReason | null {
    return null
  }

  /** The opening, from the first record: every record carries the session id, the directory and the version. */
  private begin(record: JsonObject, at: string | undefined): void {
    if (this.began) return
    this.began = true
    const facts = {
      session_id: asString(record['sessionId']) ?? null,
      cwd: asString(record['cwd']) ?? this.seam.cwd ?? null,
      harness_version: this.seam.harnessVersion ?? asString(record['version']) ?? null,
    }
    this.opening.begin({ ...sessionStart(QWEN_ADAPTER_ID, this.seam, facts), ...(at ? { at } : {}) })
  }

  private user(record: JsonObject, subtype: string | null): Emission[] {
    const text = textContent(asObject(record['message'])?.['parts']) ?? ''
    if (subtype !== null && QWEN_SESSION_VOCABULARY.records[`user/${subtype}`]) return [{ event: 'injection', text, origin: subtype }]
    this.turn += 1
    return [{ event: 'turn.started', turn: this.turn, frame_digest: null }]
  }

  private answer(record: JsonObject, lineNumber: number): Emission[] {
    const events: Emission[] = []
    const uuid = asString(record['uuid']) ?? String(lineNumber)
    const parts = asArray(asObject(record['message'])?.['parts']) ?? []
    parts.forEach((part, index) => {
      const object = isObject(part) ? part : undefined
      const call = asObject(object?.['functionCall'])
      if (call) {
        // The OpenAI wire always gives an id; a call without one is named by its record and place.
        const id = asString(call['id']) ?? `${uuid}#${index}`
        const name = asString(call['name']) ?? ''
        this.open.push({ id, name })
        events.push(...this.classifier.call(id, name, call['args'] ?? null))
      } else if (object && typeof object['text'] === 'string') {
        events.push(object['thought'] === true ? { event: 'thinking', text: object['text'], request_id: null } : { event: 'text', text: object['text'], request_id: null })
      } else if (!(object && 'thoughtSignature' in object && Object.keys(object).length === 1)) {
        this.drift.sawUnknown('assistant', 'part')
        events.push(opaqueValue(part, 'assistant', 'part', lineNumber))
      }
    })
    const tokens = asObject(record['usageMetadata'])
    if (tokens) {
      const usage = geminiUsage({ input: asU64(tokens['promptTokenCount']), output: asU64(tokens['candidatesTokenCount']), cached: asU64(tokens['cachedContentTokenCount']), thoughts: asU64(tokens['thoughtsTokenCount']) ?? null })
      events.push({ event: 'usage', request_id: null, model: asString(record['model']) ?? null, usage })
    }
    return events
  }

  /**
   * A call `exec`'s code made (code mode): 0.24.4 records it only as the UI's `qwen-code.tool_call`
   * metrics event, with `source: code_mode` and its parent call, when it has ended. It becomes the
   * call and its result; every other metrics event repeats what the call's own records hold.
   */
  private nestedCall(record: JsonObject): Emission[] {
    const event = asObject(asObject(record['systemPayload'])?.['uiEvent'])
    if (!event || asString(event['event.name']) !== 'qwen-code.tool_call' || asString(event['source']) !== 'code_mode') return []
    const id = asString(event['call_id']) ?? ''
    const success = event['success']
    return recordedNestedCall(this.classifier, id, asString(event['function_name']) ?? '', event['function_args'] ?? null, typeof success === 'boolean' ? !success : null)
  }

  /** The results a `tool_result` record gives back: one per `functionResponse` part, each paired with its call. */
  private results(record: JsonObject): Emission[] {
    const info = asObject(record['toolCallResult'])
    const status = asString(info?.['status'])
    const events: Emission[] = []
    for (const part of asArray(asObject(record['message'])?.['parts']) ?? []) {
      const response = isObject(part) ? asObject(part['functionResponse']) : undefined
      if (!response) continue
      const name = asString(response['name']) ?? ''
      const id = this.close(asString(response['id']) ?? asString(info?.['callId']), name)
      const body = asObject(response['response'])
      const content = responseContent(body)
      // Qwen Code refused it (a deny rule, a declined permission, a hook): it never started.
      if (asString(info?.['errorType']) === 'execution_denied') events.push(refusalWarning(APPROVAL_DENIED, typeof content === 'string' ? content : `Qwen Code refused call ${id}`, id))
      events.push(toolResult(id, failed(status, body), content, exitCode(name, info?.['resultDisplay'], content)))
    }
    return events
  }

  /** The call a result answers: the id it names, else the oldest open call of the same tool. */
  private close(id: string | undefined, name: string): string {
    const index = id !== undefined ? this.open.findIndex((call) => call.id === id) : this.open.findIndex((call) => call.name === name)
    if (index < 0) return id ?? ''
    return (this.open.splice(index, 1)[0] as OpenCall).id
  }
}
