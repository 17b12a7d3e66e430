import { checkTranscriptText, type CheckOptions } from '../../src/trace/check/check.js'
import type { ExpectationRow, TraceReport } from '../../src/trace/report-types.js'
import type { TraceSpec } from '../../src/trace/spec/model.js'
import { parseSpecValue, readSpec } from '../../src/trace/spec/read.js'

/**
 * Small transcripts written in tests: metaharness events framed as the wire frames them, and a
 * one-row specification checked against them through the real reader and checker.
 */

export type Event = Record<string, unknown>

/** Frames events as `metaharness.event/1` lines (`format`, `seq` from 1, `run`). */
export function metaharness(events: Event[]): string {
  return events.map((event, index) => JSON.stringify({ format: 'metaharness.event/1', seq: index + 1, run: 'T/1', ...event })).join('\n') + '\n'
}

/** Claude Code stream-json lines, one record per line. */
export function streamJson(records: Event[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n'
}

/**
 * A Claude Code stream-json run of tool calls: its init record (`init` over its fields: `cwd`,
 * `tools`), one assistant turn and one result per call, and a successful result record.
 */
export function claudeToolRun(calls: readonly { readonly name: string; readonly input: Event }[], init: Event = {}): string {
  const records: Event[] = [{ type: 'system', subtype: 'init', session_id: 's', cwd: '/w', tools: calls.map((call) => call.name), model: 'm', permissionMode: 'default', apiKeySource: 'none', ...init }]
  calls.forEach((call, n) => {
    records.push({ type: 'assistant', session_id: 's', message: { id: `m${n}`, role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: `t${n}`, name: call.name, input: call.input }], usage: { input_tokens: 1, output_tokens: 1 } } })
    records.push({ type: 'user', session_id: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: 'ok' }] } })
  })
  records.push({ type: 'result', subtype: 'success', is_error: false, session_id: 's', num_turns: calls.length + 1, result: 'done', total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } })
  return streamJson(records)
}

export const start = (over: Event = {}): Event => ({
  event: 'session.started',
  adapter: 'claude',
  adapter_class: 'harness',
  harness_version: '2.1.239',
  session_id: 's-1',
  model: 'claude-sonnet-5',
  permission_mode: 'default',
  credential_source: 'none',
  output_style: 'default',
  cwd: '/work',
  offered_tools: ['Bash', 'Read', 'Skill', 'Write'],
  available_operations: ['file.read', 'file.write', 'shell'],
  slash_commands: ['/help'],
  skills: ['aep-planning:planning'],
  agents: ['reviewer'],
  plugins: [{ name: 'aep', source: 'aep@inline', version: '0.1.0' }],
  mcp_servers: [],
  inputs_digest: null,
  transcript: { path: null, digest: null, bytes: null },
  hermetic: { mode: 'strict', decisions: 'observe' },
  ...over,
})

export const call = (id: string, name: string, input: Event, over: Event = {}): Event => ({
  event: 'tool.requested',
  call_id: id,
  name,
  input,
  decision_required: false,
  deadline_ms: null,
  seam: 'none',
  ...over,
})

export const result = (id: string, over: Event = {}): Event => ({
  event: 'tool.result',
  exit_code: null,
  outcome_source: null,
  call_id: id,
  is_error: false,
  content: 'ok',
  bytes: 2,
  tool_use_result: null,
  ...over,
})

export const usageOf = (over: Event = {}): Event => ({
  input_tokens: 10,
  output_tokens: 20,
  cache_read_input_tokens: 100,
  cache_creation_input_tokens: 50,
  service_tier: 'standard',
  thinking_tokens: 64,
  iterations: 3,
  speed: 'standard',
  cost_usd: null,
  ...over,
})

export const ended = (over: Event = {}): Event => ({
  event: 'session.ended',
  final_answer: null,
  observed_models: null,
  is_error: false,
  subtype: 'success',
  stop_reason: 'end_turn',
  terminal_reason: 'completed',
  api_error_status: null,
  num_turns: 4,
  duration_ms: 5000,
  duration_api_ms: 4000,
  ttft_ms: 900,
  time_to_request_ms: 60,
  total_cost_usd: 0.25,
  permission_denials: [],
  subagents_spawned: 0,
  usage: usageOf(),
  model_usage: { 'claude-sonnet-5': { ...usageOf(), cost_usd: 0.25 } },
  census: { allowed: 1, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} },
  ...over,
})

export const request = (id: string | null, over: Event = {}): Event => ({ event: 'usage', request_id: id, model: 'claude-sonnet-5', usage: usageOf(over) })
export const text = (words: string, requestId: string | null = null): Event => ({ event: 'text', text: words, request_id: requestId })
export const rateLimit = (info: Event): Event => ({ event: 'rate_limit', info: { status: 'allowed', window: 'five_hour', resets_at: 0, utilization: 0.2, using_overage: false, ...info } })
export const opaque = (): Event => ({ event: 'opaque', vendor_type: 'quantum_event', vendor_subtype: null, digest: '0'.repeat(64), source_line: 9 })
export const closed = (events: number): Event => ({ event: 'stream.closed', events, reason: 'completed', run_id: 'T/1' })

/** A whole run that says it closed: the session's opening (`over` its fields), `events`, its end, `stream.closed`. */
export function closedRun(events: Event[], over: Event = {}): string {
  const all = [start(over), ...events, ended()]
  return metaharness([...all, closed(all.length)])
}

/**
 * A specification of the given `expect:` values: a list (ids `e0`, `e1`…) or an object by id.
 * A refusal fails the test that built it, naming every refusal.
 */
export function specOf(id: string, expectations: Array<Record<string, unknown>> | Record<string, Record<string, unknown>>): TraceSpec {
  const rows = Array.isArray(expectations) ? expectations.map((expect, n) => ({ id: `e${n}`, expect })) : Object.entries(expectations).map(([row, expect]) => ({ id: row, expect }))
  const read = parseSpecValue({ format: 'trace-spec/1', id, expectations: rows })
  if (!read.ok) throw new Error(`${id}: ${JSON.stringify(read.refusals)}`)
  return read.spec
}

/** A one-expectation specification whose `expect:` is the given YAML flow text. */
export function oneRow(expect: string, extra = ''): string {
  return `format: trace-spec/1\nid: unit/one-row\nexpectations:\n  - id: only\n${extra}    expect: ${expect}\n`
}

/** Checks one expectation against a transcript and returns the report. */
export function checkOne(expect: string, transcript: string, options: CheckOptions & { extra?: string } = {}): TraceReport {
  const { extra, ...rest } = options
  return checkTranscriptText(readSpec(oneRow(expect, extra)), transcript, rest)
}

/** The one row of `checkOne`. */
export function rowOf(expect: string, transcript: string, options: CheckOptions & { extra?: string } = {}): ExpectationRow {
  return checkOne(expect, transcript, options).expectations[0] as ExpectationRow
}

/** The one row of `checkOne` over a closed Claude Code run of one `Bash` call that ran `line`. */
export function rowOverShellLine(expect: string, line: string): ExpectationRow {
  return rowOf(expect, claudeToolRun([{ name: 'Bash', input: { command: line } }]))
}
