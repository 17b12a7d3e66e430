import type { Emission } from '../../src/events/types.js'
import { unclassifiedToolWarning } from '../../src/events/unclassified-tool.js'
import type { SeamOptions } from '../types.js'
import { seamAttestation, transcriptRef } from './hermetic.js'
import type { SessionStart } from './opening.js'
import { classifyCall, dispatchedCall, type ToolOperationTable } from './operations.js'

/** A `session.started` for a harness record, every fact the record did not give left to the seam or null. */
export function sessionStart(adapter: string, seam: SeamOptions, facts: Partial<Omit<SessionStart, 'event'>> = {}): SessionStart {
  return {
    event: 'session.started',
    adapter,
    adapter_class: 'harness',
    harness_version: seam.harnessVersion ?? null,
    session_id: null,
    model: seam.model ?? null,
    permission_mode: null,
    credential_source: null,
    output_style: null,
    cwd: seam.cwd ?? null,
    offered_tools: null,
    slash_commands: null,
    skills: null,
    agents: null,
    plugins: null,
    mcp_servers: null,
    inputs_digest: null,
    transcript: transcriptRef(seam),
    hermetic: seamAttestation(seam),
    ...facts,
  }
}

type SessionEnded = Extract<Emission, { event: 'session.ended' }>

/** A `session.ended` carrying only what the record said; everything else null. */
export function sessionEnded(facts: Partial<Omit<SessionEnded, 'event'>>): SessionEnded {
  return {
    event: 'session.ended',
    final_answer: null,
    observed_models: null,
    is_error: null,
    subtype: null,
    stop_reason: null,
    terminal_reason: null,
    api_error_status: null,
    num_turns: null,
    duration_ms: null,
    duration_api_ms: null,
    ttft_ms: null,
    time_to_request_ms: null,
    total_cost_usd: null,
    permission_denials: null,
    subagents_spawned: null,
    usage: null,
    model_usage: null,
    census: { allowed: 0, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} },
    ...facts,
  }
}

type ToolRequested = Extract<Emission, { event: 'tool.requested' }>

/** An observed call: nothing blocked on it, no seam covered it. Unclassified unless `classified` is given. */
export function toolRequested(callId: string, name: string, input: unknown, classified: { operations: string[]; subjects: string[] } = { operations: [], subjects: [] }): ToolRequested {
  return {
    event: 'tool.requested',
    call_id: callId,
    name,
    input,
    operations: classified.operations,
    subjects: classified.subjects,
    decision_required: false,
    deadline_ms: null,
    seam: 'none',
  }
}

/** An observed call, classified by the harness's tool table into operations and subjects. */
export function classifiedCall(table: ToolOperationTable, callId: string, name: string, input: unknown): ToolRequested {
  const call = dispatchedCall(table, name, input)
  return toolRequested(callId, call.name, call.input, classifyCall(table, call.name, call.input))
}

/**
 * Says which tools nobody could classify: before the first call of such a tool, an
 * `unclassified_tool` warning (once per name), so a check over operations answers `unknown` for
 * it rather than a false `ok`.
 */
export class UnclassifiedTools {
  private readonly reported = new Set<string>()

  constructor(private readonly adapter: string) {}

  /** The tools met that nobody classified, in the order they were met. */
  get names(): readonly string[] {
    return [...this.reported]
  }

  /** A call's events: the warning (first unclassified call of a tool only), then the call. */
  warnBefore(requested: ToolRequested, classified: boolean): Emission[] {
    if (classified || this.reported.has(requested.name)) return [requested]
    this.reported.add(requested.name)
    return [unclassifiedToolWarning(requested.name, this.adapter), requested]
  }
}

/** Classifies one transcript's calls by a tool table, and says which tools it could not (`UnclassifiedTools`). */
export class CallClassifier {
  private readonly unknown: UnclassifiedTools

  constructor(
    private readonly table: ToolOperationTable,
    adapter: string,
  ) {
    this.unknown = new UnclassifiedTools(adapter)
  }

  /** The tools met that the table did not know, in the order they were met. */
  get unclassified(): readonly string[] {
    return this.unknown.names
  }

  /** The call's events: the warning (first unknown call of a tool only), then the classified `tool.requested`. */
  call(callId: string, called: string, given: unknown): Emission[] {
    const { name, input } = dispatchedCall(this.table, called, given)
    const classification = classifyCall(this.table, name, input)
    return this.unknown.warnBefore(toolRequested(callId, name, input, classification), classification.known)
  }
}

/** A tool's result as the record gave it. */
export function toolResult(callId: string, isError: boolean | null, content: unknown, exitCode: number | null = null): Emission {
  return {
    event: 'tool.result',
    exit_code: exitCode,
    outcome_source: null,
    call_id: callId,
    is_error: isError,
    content: content === undefined ? null : content,
    bytes: typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : null,
    tool_use_result: null,
  }
}

/** The text parts of a content value: a string as it is, a list's `text` parts joined. */
export function textContent(content: unknown, separator = '\n'): string | undefined {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return undefined
  const parts: string[] = []
  for (const part of content) {
    if (part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') parts.push((part as { text: string }).text)
  }
  return parts.join(separator)
}

/** Attaches the vendor's timestamp, when it recorded one (in place: the events are this line's own). */
export function timed(events: Emission[], at: string | undefined): Emission[] {
  if (at !== undefined) for (const event of events) event.at = at
  return events
}
