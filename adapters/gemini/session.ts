import type { CloseReason, Emission } from '../../src/events/types.js'
import { asArray, asObject, asString, asU64, isObject, type JsonObject } from '../shared/fields.js'
import { opaqueLine } from '../shared/opaque.js'
import { CallClassifier, sessionStart, textContent, timed, toolResult } from '../shared/session.js'
import { DriftWatch, knowsRecord } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { GEMINI_ADAPTER_ID } from './declaration.js'
import { GEMINI_TOOL_OPERATIONS } from './operations.js'
import { geminiUsage } from './usage.js'
import { GEMINI_SESSION_VOCABULARY } from './vocabulary.js'

/** The key a session-file line is known by in the vocabulary. */
export function sessionRecordKey(record: JsonObject): string | null {
  if (typeof record['sessionId'] === 'string' && typeof record['projectHash'] === 'string') return 'metadata'
  if (isObject(record['$set'])) return '$set'
  if (typeof record['$rewindTo'] === 'string') return '$rewindTo'
  if (typeof record['id'] === 'string') return asString(record['type']) ?? null
  return null
}

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

/**
 * The Gemini CLI session file (0.61's chat recording, JSONL). A message is appended again, whole,
 * each time it changes (its text, tokens or `toolCalls` arrive later; the last copy wins, as the
 * CLI's own loader reads it), so the reader holds the latest copy of a message until a record with
 * another id arrives, then emits it once. A copy of an id already emitted adds only its new calls.
 * A user record of `functionResponse` parts repeats results the calls already carry. The file has
 * no end marker: it never proves the run closed.
 */
export class GeminiSessionProjector implements RecordProjector {
  private turn = 0
  private pending: { readonly record: JsonObject; readonly type: string } | undefined
  private readonly emittedMessages = new Set<string>()
  private readonly seenCalls = new Set<string>()
  private readonly classifier = new CallClassifier(GEMINI_TOOL_OPERATIONS, GEMINI_ADAPTER_ID)
  private readonly drift = new DriftWatch(GEMINI_SESSION_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {
    this.drift.sawVersion(seam.harnessVersion)
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    return [...this.flush(), opaqueLine(raw, null, null, lineNumber)]
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const key = sessionRecordKey(record)
    if (key === null || !knowsRecord(GEMINI_SESSION_VOCABULARY, key)) {
      this.drift.sawUnknown(key)
      return [...this.flush(), opaqueLine(raw, key, null, lineNumber)]
    }
    switch (key) {
      case 'metadata':
        return [...this.flush(), sessionStart(GEMINI_ADAPTER_ID, this.seam, { session_id: asString(record['sessionId']) ?? null })]
      case '$set': {
        // A metadata update; when it sets `messages`, those are the conversation's opening records.
        const messages = asArray((record['$set'] as JsonObject)['messages']) ?? []
        return messages.flatMap((message) => (isObject(message) ? this.hold(message, asString(message['type']) ?? '') : []))
      }
      case '$rewindTo':
        return [
          ...this.flush(),
          { event: 'warning', code: 'gemini-rewind', message: `the user rewound the conversation to message ${asString(record['$rewindTo']) ?? ''}; the calls before the rewind ran and stay in this stream` },
        ]
      default:
        return this.hold(record, key)
    }
  }

  finish(): Emission[] {
    return [...this.flush(), ...this.drift.finish()]
  }

  closure(): CloseReason | null {
    return null
  }

  /** Keeps the latest copy of the current message; a record with another id releases the one held. */
  private hold(record: JsonObject, type: string): Emission[] {
    const id = asString(record['id'])
    const held = this.pending ? asString(this.pending.record['id']) : undefined
    const released = held !== undefined && held === id ? [] : this.flush()
    this.pending = { record, type }
    return released
  }

  private flush(): Emission[] {
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
    return timed(events, asString(record['timestamp']))
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
    if (this.seenCalls.has(id)) return []
    const status = asString(call['status'])
    // A call still awaiting approval or running is written again when it ends.
    if (status !== 'success' && status !== 'error' && status !== 'cancelled') return []
    this.seenCalls.add(id)
    const name = asString(call['name']) ?? ''
    return [...this.classifier.call(id, name, call['args'] ?? null), toolResult(id, status === 'success' ? false : true, resultContent(call))]
  }
}
