import type { AssistantRequest, IrEvent, IrSink, RunOutcome, SessionStart, StreamEnd } from '../trace/ir/types.js'
import { witnessMarker } from '../trace/ir/types.js'
import { clip } from './clip.js'
import type { RequestView, SessionView, TimelineEntry, UsageTotals } from './model.js'

function sessionView(start: SessionStart): SessionView {
  return {
    harnessVersion: start.harnessVersion,
    model: start.model,
    cwd: start.cwd,
    permissionMode: start.permissionMode,
    tools: start.tools,
  }
}

function outcomeFields(outcome: RunOutcome): Record<string, string | number | boolean | null> {
  return {
    isError: outcome.isError,
    subtype: outcome.subtype,
    stopReason: outcome.stopReason,
    terminalReason: outcome.terminalReason,
    numTurns: outcome.numTurns,
    durationMs: outcome.durationMs,
    totalCostUsd: outcome.totalCostUsd,
    permissionDenials: outcome.permissionDenials,
  }
}

/** Pretty JSON of a call's arguments: what a person reads. */
function prettyArgs(input: Record<string, unknown>): string {
  return JSON.stringify(input, null, 2)
}

/**
 * Collects a run's IR as the report's timeline while a reader produces it: one entry per IR event
 * (so entry `i` is IR index `i`), calls and results linked both ways by call id, requests with the
 * event they followed. Texts are clipped, so memory is the page's size, not the transcript's.
 */
export class TimelineSink implements IrSink {
  readonly events: TimelineEntry[] = []
  readonly requests: RequestView[] = []
  session: SessionView | null = null
  end_: StreamEnd | null = null
  private readonly openCalls = new Map<string, number>()
  private costUsd: number | null = null

  event(event: IrEvent): void {
    const base = { i: event.index, line: event.sourceLine, at: event.timestamp }
    switch (event.family) {
      case 'session_start': {
        const session = sessionView(event.start)
        this.session ??= session
        this.events.push({ ...base, kind: 'session', session })
        break
      }
      case 'assistant_text':
        this.events.push({ ...base, kind: 'text', text: clip(event.text) })
        break
      case 'assistant_thinking':
        this.events.push({ ...base, kind: 'thinking', text: clip(event.text) })
        break
      case 'synthetic_injection':
        this.events.push({ ...base, kind: 'injection', text: clip(event.text) })
        break
      case 'tool_call': {
        const { call } = event
        if (call.callId !== null) this.openCalls.set(call.callId, event.index)
        this.events.push({ ...base, kind: 'call', name: call.name, callId: call.callId, args: clip(prettyArgs(call.input)), result: null })
        break
      }
      case 'tool_result': {
        const { result } = event
        const callIndex = result.callId === null ? undefined : this.openCalls.get(result.callId)
        if (callIndex !== undefined) {
          this.openCalls.delete(result.callId as string)
          const call = this.events[callIndex]
          if (call?.kind === 'call') call.result = event.index
        }
        this.events.push({ ...base, kind: 'result', callId: result.callId, isError: result.isError, content: clip(result.content ?? ''), call: callIndex ?? null })
        break
      }
      case 'run_outcome':
        if (event.outcome.totalCostUsd !== null) this.costUsd = event.outcome.totalCostUsd
        this.events.push({ ...base, kind: 'outcome', fields: outcomeFields(event.outcome) })
        break
      case 'opaque':
        this.events.push({ ...base, kind: 'opaque', type: event.opaque.eventType, subtype: event.opaque.subtype, digest: event.opaque.digest })
        break
      case 'rate_limit':
        this.events.push({ ...base, kind: 'rate_limit', status: event.state.status, window: event.state.limitType })
        break
      case 'thinking_estimate':
        this.events.push({ ...base, kind: 'thinking_estimate', tokens: event.estimatedTokens })
        break
    }
  }

  request(request: AssistantRequest): void {
    this.requests.push({
      line: request.sourceLine,
      requestId: request.requestId,
      model: request.model,
      inputTokens: request.inputTokens,
      outputTokens: request.outputTokens,
      cacheReadInputTokens: request.cacheReadInputTokens,
      cacheCreationInputTokens: request.cacheCreationInputTokens,
      afterEvent: this.events.length === 0 ? null : this.events.length - 1,
    })
  }

  end(end: StreamEnd): void {
    this.end_ = end
  }

  /** The closure as a sentence, or null when nothing says the transcript is the whole run. */
  closure(): string | null {
    const close = this.end_?.closure
    return close ? witnessMarker(close.witness) : null
  }

  totals(): UsageTotals {
    const sum = (pick: (request: RequestView) => number | null) => this.requests.reduce((total, request) => total + (pick(request) ?? 0), 0)
    return {
      requests: this.requests.length,
      inputTokens: sum((request) => request.inputTokens),
      outputTokens: sum((request) => request.outputTokens),
      cacheReadInputTokens: sum((request) => request.cacheReadInputTokens),
      cacheCreationInputTokens: sum((request) => request.cacheCreationInputTokens),
      costUsd: this.costUsd,
    }
  }
}
