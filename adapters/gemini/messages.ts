import type { Emission } from '../../src/events/types.js'
import { asArray, asObject, asString, asU64, isObject, type JsonObject } from '../shared/fields.js'
import { CallClassifier, textContent, timed, toolResult } from '../shared/session.js'
import { lastExitCode, type ExitCodeLine } from '../shared/exit-code-line.js'
import { GEMINI_ADAPTER_ID } from './declaration.js'
import { GEMINI_TOOL_OPERATIONS } from './operations.js'
import { geminiUsage } from './usage.js'
import { geminiRefusalWarning, isGeminiRefusal } from './refusals.js'

// A call in any other status (validating, scheduled, awaiting_approval, executing) has not ended.
const ENDED = new Set(['success', 'error', 'cancelled'])

/** What a call's `result` (a list of `functionResponse` parts) says came back. */
function resultContent(call: JsonObject): unknown {
  const parts = asArray(call['result']) ?? []
  const outputs: unknown[] = []
  for (const part of parts) {
    const response = isObject(part) ? asObject(asObject(part['functionResponse'])?.['response']) : undefined
    if (!response) continue
    outputs.push(response['output'] ?? response['error'] ?? response)
  }
  if (outputs.length === 0) return call['resultDisplay'] ?? null
  return outputs.length === 1 ? outputs[0] : outputs
}

// `run_shell_command` tells the model a failed command's code on a line of its own, after the
// output: 0.61 writes it only for a nonzero code (`exit 3` completed with `status: success` and
// `Exit Code: 3`), so without one the call's status stands.
const EXIT_CODE_LINE: ExitCodeLine = { marker: 'Exit Code: ', pattern: /^Exit Code: (-?\d+)$/gm }

/**
 * The messages of a Gemini CLI chat recording, as both of its forms hold them: records with an
 * `id`, a `type` (`user`, `gemini`, `info`, `warning`, `error`) and a `timestamp`. The JSONL log
 * appends a message again, whole, each time it changes (text, tokens or `toolCalls` arrive later;
 * the last copy wins, as the CLI's own loader reads it); the older JSON document holds each message
 * once. So the latest copy of the current message is held until a message with another id
 * arrives, then emitted; a later copy of an id already emitted adds only what is new in it.
 *
 * A call is requested when its message is released, whatever its status: a call the file leaves
 * awaiting approval or still executing (the CLI was stopped) was asked for all the same. Its
 * result follows once a copy shows it ended. Neither is timed: the file records no call's start.
 */
export class GeminiMessages {
  private turn = 0
  private pending: { readonly record: JsonObject; readonly type: string } | undefined
  private readonly emittedMessages = new Set<string>()
  private readonly requestedCalls = new Set<string>()
  private readonly endedCalls = new Set<string>()
  private readonly classifier = new CallClassifier(GEMINI_TOOL_OPERATIONS, GEMINI_ADAPTER_ID)

  /** Keeps the latest copy of the current message; a message with another id releases the one held. */
  hold(record: JsonObject, type: string): Emission[] {
    const id = asString(record['id'])
    const held = this.pending ? asString(this.pending.record['id']) : undefined
    const released = held !== undefined && held === id ? [] : this.flush()
    this.pending = { record, type }
    return released
  }

  /** Emits the message held, if any. */
  flush(): Emission[] {
    const pending = this.pending
    if (!pending) return []
    this.pending = undefined
    const { record, type } = pending
    const id = asString(record['id']) ?? ''
    const first = !this.emittedMessages.has(id)
    this.emittedMessages.add(id)
    const events: Emission[] = []
    if (type === 'user' && first) events.push(...this.user(record))
    if (type === 'gemini') {
      if (first) events.push(...this.answer(record))
      for (const call of asArray(record['toolCalls']) ?? []) if (isObject(call)) events.push(...this.call(call))
    }
    if ((type === 'error' || type === 'warning') && first) events.push({ event: 'warning', code: `gemini-${type}`, message: textContent(record['content']) ?? '' })
    // The message's time is when the answer began; a call's own `timestamp` is when it completed
    // (written as the results go back to the model). No record says when a call started, so a
    // call and its result stay untimed: stamped with the message's time, every call would take
    // no time to generate or to run.
    timed(
      events.filter((event) => event.event !== 'tool.requested' && event.event !== 'tool.result'),
      asString(record['timestamp']),
    )
    return events
  }

  private user(record: JsonObject): Emission[] {
    const parts = asArray(record['content']) ?? []
    const text = textContent(record['content']) ?? ''
    // Results of calls the gemini record already holds: nothing new.
    if (text === '' && parts.length > 0 && parts.every((part) => isObject(part) && 'functionResponse' in part)) return []
    if (text.trimStart().startsWith('<session_context>')) return [{ event: 'injection', text, origin: 'session_context' }]
    this.turn += 1
    return [{ event: 'turn.started', turn: this.turn, frame_digest: null }]
  }

  private answer(record: JsonObject): Emission[] {
    const events: Emission[] = []
    for (const thought of asArray(record['thoughts']) ?? []) {
      if (!isObject(thought)) continue
      const text = [asString(thought['subject']), asString(thought['description'])].filter(Boolean).join(': ')
      if (text !== '') events.push({ event: 'thinking', text, request_id: null })
    }
    const text = textContent(record['content']) ?? ''
    if (text !== '') events.push({ event: 'text', text, request_id: null })
    const tokens = asObject(record['tokens'])
    if (tokens) {
      events.push({ event: 'usage', request_id: null, model: asString(record['model']) ?? null, usage: geminiUsage({ input: asU64(tokens['input']), output: asU64(tokens['output']), cached: asU64(tokens['cached']), thoughts: asU64(tokens['thoughts']) ?? null }) })
    }
    return events
  }

  private call(call: JsonObject): Emission[] {
    const id = asString(call['id']) ?? ''
    const events: Emission[] = []
    if (!this.requestedCalls.has(id)) {
      this.requestedCalls.add(id)
      events.push(...this.classifier.call(id, asString(call['name']) ?? '', call['args'] ?? null))
    }
    const status = asString(call['status']) ?? ''
    if (ENDED.has(status) && !this.endedCalls.has(id)) {
      this.endedCalls.add(id)
      const content = resultContent(call)
      const exit = asString(call['name']) === 'run_shell_command' ? lastExitCode(content, EXIT_CODE_LINE) : null
      // A call it refused answers only in its words: said before the result, as its stdout's reader says it.
      if (status === 'error' && isGeminiRefusal(content)) events.push(geminiRefusalWarning(content, id))
      events.push(toolResult(id, status !== 'success' || (exit !== null && exit !== 0), content, exit))
    }
    return events
  }
}
