import { geminiRefusalWarning } from './refusals.js'
import { requestsUnmarkedWarning } from '../../src/events/requests-unmarked.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { asObject, asString, asU64, type JsonObject } from '../shared/fields.js'
import { opaqueLine } from '../shared/opaque.js'
import { CallClassifier, sessionEnded, sessionStart, timed, toolResult } from '../shared/session.js'
import { UnseenSubagents } from '../shared/subagent.js'
import { DriftWatch, knowsRecord } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { GEMINI_ADAPTER_ID } from './declaration.js'
import { GEMINI_TOOL_OPERATIONS } from './operations.js'
import { geminiUsage } from './usage.js'
import { GEMINI_STREAM_JSON_VOCABULARY } from './vocabulary.js'

/**
 * `gemini --output-format stream-json` stdout: `init`, the user `message`, assistant `message`
 * deltas, `tool_use`/`tool_result` pairs and one closing `result`. Consecutive assistant deltas are
 * one `text` event. The stream proves closure when its last record is `result`. Note what it does
 * not carry: `tool_result.output` is the CLI's display text, empty for `read_file` (the content the
 * model saw is in the session file's `functionResponse`), so byte checks belong on the session file.
 * Nor does it carry a subagent's calls (0.61 writes them to the subagent's own chat file,
 * `chats/<session>/<subagent session>.jsonl`): once a call spawns one, the stream proves no closure.
 * Nor whether a shell command failed: 0.61 answers `run_shell_command` `exit 3` with `status:
 * success` and the command's output, the exit code only in the session file's `functionResponse`.
 * A shell call's successful result therefore says nothing of failure (`is_error` null), and a
 * count of failed calls over it is unknown rather than a false zero.
 */
export class GeminiStreamJsonProjector implements RecordProjector {
  private turn = 0
  private pendingText = ''
  private pendingAt: string | undefined
  private lastAnswer: string | null = null
  private last: CloseReason | null = null
  private readonly subagents = new UnseenSubagents('the subagent’s own chat file')
  private readonly classifier = new CallClassifier(GEMINI_TOOL_OPERATIONS, GEMINI_ADAPTER_ID)
  private readonly drift = new DriftWatch(GEMINI_STREAM_JSON_VOCABULARY)
  // Shell calls by id: their result's `success` names no exit code.
  private readonly shellCalls = new Set<string>()

  constructor(private readonly seam: SeamOptions) {
    // The stream names no CLI version; only the caller's word can date it.
    this.drift.sawVersion(seam.harnessVersion)
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    this.last = null
    return [...this.flush(), opaqueLine(raw, null, null, lineNumber)]
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const type = asString(record['type']) ?? ''
    const role = type === 'message' ? (asString(record['role']) ?? null) : null
    const at = asString(record['timestamp'])
    this.last = type === 'result' ? (asString(record['status']) === 'success' ? 'completed' : 'error') : null
    if (type === 'message' && role === 'assistant') {
      if (this.pendingText === '') this.pendingAt = at
      this.pendingText += asString(record['content']) ?? ''
      return []
    }
    const flushed = this.flush()
    if (!knowsRecord(GEMINI_STREAM_JSON_VOCABULARY, type, role)) {
      this.drift.sawUnknown(type, role)
      return [...flushed, opaqueLine(raw, type, role, lineNumber)]
    }
    return [...flushed, ...timed(this.map(record, type), at)]
  }

  finish(): Emission[] {
    return [...this.flush(), ...this.drift.finish()]
  }

  closure(): CloseReason | null {
    return this.subagents.closure(this.last)
  }

  private flush(): Emission[] {
    if (this.pendingText === '') return []
    const text = this.pendingText
    this.pendingText = ''
    this.lastAnswer = text
    return timed([{ event: 'text', text, request_id: null }], this.pendingAt)
  }

  private map(record: JsonObject, type: string): Emission[] {
    switch (type) {
      case 'init':
        return [
          sessionStart(GEMINI_ADAPTER_ID, this.seam, { session_id: asString(record['session_id']) ?? null, model: asString(record['model']) ?? this.seam.model ?? null }),
          requestsUnmarkedWarning('Gemini CLI stream-json', 'over the whole run, in the `result` record'),
        ]
      case 'message':
        // A user message opens a turn: headless runs have one prompt, and each is a turn.
        this.turn += 1
        return [{ event: 'turn.started', turn: this.turn, frame_digest: null }]
      case 'tool_use': {
        const id = asString(record['tool_id']) ?? ''
        const events = this.classifier.call(id, asString(record['tool_name']) ?? '', record['parameters'] ?? null)
        if (events.some((event) => event.event === 'tool.requested' && event.operations?.includes('shell'))) this.shellCalls.add(id)
        return this.subagents.watch(events)
      }
      case 'tool_result': {
        const id = asString(record['tool_id']) ?? ''
        const status = asString(record['status'])
        const error = asObject(record['error'])
        const content = record['output'] ?? (error ? (error['message'] ?? null) : null)
        // A shell call's `success` names no exit code: it says nothing of failure.
        const isError = status === 'error' ? true : status === 'success' && !this.shellCalls.has(id) ? false : null
        this.shellCalls.delete(id)
        return [...policyRefusal(error, id), toolResult(id, isError, content)]
      }
      case 'error':
        return [{ event: 'warning', code: `gemini-${asString(record['severity']) ?? 'error'}`, message: asString(record['message']) ?? '' }]
      case 'result': {
        const failed = asString(record['status']) !== 'success'
        const stats = asObject(record['stats'])
        const error = asObject(record['error'])
        const events: Emission[] = []
        // The run's totals: one usage for the run (requests_unmarked says so), and the run's usage.
        const usage = stats ? geminiUsage({ input: asU64(stats['input_tokens']), output: asU64(stats['output_tokens']), cached: asU64(stats['cached']), thoughts: null }) : null
        if (usage) events.push({ event: 'usage', request_id: null, model: null, usage })
        if (failed) events.push({ event: 'warning', code: 'gemini-result-error', message: (error && asString(error['message'])) ?? 'the run ended with an error' })
        events.push({ event: 'turn.ended', turn: Math.max(this.turn, 1), stop_reason: failed ? 'failed' : null })
        events.push(
          sessionEnded({
            final_answer: this.lastAnswer,
            is_error: failed,
            terminal_reason: failed ? 'error' : 'success',
            // A turn here is the user's prompt; the stream states no count of the model turns `num_turns` means.
            num_turns: null,
            duration_ms: stats ? (asU64(stats['duration_ms']) ?? null) : null,
            usage,
            // Every call a policy or a hook refused is a refusal warning before its result.
            permission_denials: [],
          }),
        )
        return events
      }
      default:
        return []
    }
  }
}

/**
 * A call Gemini CLI refused answers `error.type: policy_violation` (0.61): a policy rule denied it
 * ("Tool execution denied by policy.") or a hook blocked it ("Tool execution blocked: …").
 */
function policyRefusal(error: JsonObject | undefined, callId: string): Emission[] {
  if (error === undefined || asString(error['type']) !== 'policy_violation') return []
  return [geminiRefusalWarning(asString(error['message']) ?? 'a policy refused the call', callId)]
}
