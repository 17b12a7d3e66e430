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
 * One stream's calls of tools that run code calling other tools apart from it: once it has said
 * so (`nested_calls_unseen`), its closure no longer stands. Either it watches for calls of tools
 * whose code's calls are always elsewhere (Qwen Code's `exec` in code mode: `tools`, each with
 * where the harness records them), the first such call followed by the warning once; or a reader
 * that finds a record of such calls cut short says so itself (`warning`).
 */
export class UnseenNestedCalls {
  private seen = false

  constructor(private readonly tools: Readonly<Record<string, string>> = {}) {}

  /** The events, with the warning after them the first time one of them calls such a tool. */
  watch(events: Emission[]): Emission[] {
    if (this.seen) return events
    const call = events.find((event) => event.event === 'tool.requested' && Object.hasOwn(this.tools, event.name))
    if (call?.event !== 'tool.requested') return events
    return [...events, this.warning(call.call_id, call.name, this.tools[call.name] as string)]
  }

  /** The warning that call `callId` of `tool` ran code whose calls are in `where`, not all in this stream. */
  warning(callId: string, tool: string, where: string): Emission {
    this.seen = true
    return nestedCallsUnseenWarning(callId, tool, where)
  }

  /** The stream's closure, unless code called tools apart from it. */
  closure(closed: CloseReason | null): CloseReason | null {
    return this.seen ? null : closed
  }
}
