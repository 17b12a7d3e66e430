import { nestedCallsUnseenWarning } from '../../src/events/nested-calls-unseen.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { toolResult, type CallClassifier } from './session.js'

/**
 * A call a tool's code made, as the harness recorded it beside that tool's own (a pi codemode
 * script's `nestedCalls`, an opencode code-mode script's `metadata.toolCalls`, Qwen Code's code-mode
 * telemetry): the classified call, then how it ended. Harnesses keep no nested result's content, so
 * the result has none; `isError` undefined: it had not ended, and there is no result.
 */
export function recordedNestedCall(calls: CallClassifier, callId: string, name: string, input: unknown, isError: boolean | null | undefined): Emission[] {
  const events = calls.call(callId, name, input)
  if (isError !== undefined) events.push(toolResult(callId, isError, null))
  return events
}

/**
 * One stream's calls of tools that run code calling other tools apart from it (Qwen Code's `exec`
 * in code mode): the first such call is followed by the warning, once, and the stream's closure
 * no longer stands. `tools`: each such tool, with where the harness records the calls its code made.
 */
export class UnseenNestedCalls {
  private seen = false

  constructor(private readonly tools: Readonly<Record<string, string>>) {}

  /** The events, with the warning after them the first time one of them calls such a tool. */
  watch(events: Emission[]): Emission[] {
    if (this.seen) return events
    const call = events.find((event) => event.event === 'tool.requested' && Object.hasOwn(this.tools, event.name))
    if (call?.event !== 'tool.requested') return events
    this.seen = true
    return [...events, nestedCallsUnseenWarning(call.call_id, call.name, this.tools[call.name] as string)]
  }

  /** The stream's closure, unless code called tools apart from it. */
  closure(closed: CloseReason | null): CloseReason | null {
    return this.seen ? null : closed
  }
}
