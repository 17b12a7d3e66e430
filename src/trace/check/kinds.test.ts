import { describe, expect, it } from 'vitest'
import { call, closed, ended, metaharness, opaque, rateLimit, request, result, rowOf, start, streamJson, text, type Event } from '../../../test/helpers/trace.js'
import { KIND_NAMES } from '../spec/kinds.js'
import { describeOutcome, type Outcome } from './outcome.js'
import type { RowVerdict } from '../report-types.js'

/**
 * Every kind against real event sequences, read by the real reader: at least one ok, one gap and
 * one unknown each. Each case pins the verdict and what it cites or why.
 */

const at = (ms: number) => new Date(Date.UTC(2026, 7, 23, 9, 0, 0, ms)).toISOString()
const timed = (events: Event[]) => events.map((event, index) => ({ ...event, at: at(index * 100) }))

/** A closed, ordinary run: a test run, a write, a skill, a failed read and a repeated read. */
const RUN: Event[] = [
  start(),
  text('Working on it.', 'r-1'),
  call('c-1', 'Bash', { command: 'cargo test --workspace' }, { operations: ['shell'] }),
  result('c-1', { content: 'test result: ok', tool_use_result: { stdout: 'ok', interrupted: false } }),
  request('r-1', { cache_read_input_tokens: 100, cache_creation_input_tokens: 300 }),
  call('c-2', 'Write', { file_path: '/w/src/lib.rs', content: 'x' }, { operations: ['file.write'] }),
  result('c-2', { content: 'wrote 1 byte', tool_use_result: { filePath: '/w/src/lib.rs', userModified: false } }),
  call('c-3', 'Skill', { skill: 'aep-planning:planning' }),
  result('c-3', { tool_use_result: { commandName: 'aep-planning:planning', success: true } }),
  call('c-4', 'Read', { file_path: '/w/README.md' }),
  result('c-4', { is_error: true, content: 'no such file' }),
  call('c-5', 'Read', { file_path: '/w/README.md' }),
  result('c-5', { is_error: false, content: 'hello' }),
  { event: 'thinking.estimate', estimate: 96, delta: 96 },
  rateLimit({ status: 'allowed_warning', utilization: 0.62, using_overage: false }),
  text('All done: tests pass.', 'r-2'),
  request('r-2', { cache_read_input_tokens: 250, cache_creation_input_tokens: 50 }),
  ended(),
]
// IR indices: 0 start, 1 text, 2 Bash, 3 result, 4 Write, 5 result, 6 Skill, 7 result, 8 Read,
// 9 result (error), 10 Read, 11 result, 12 estimate, 13 rate limit, 14 text, 15 ended.
const closedRun = metaharness(timed([...RUN, closed(RUN.length)]))
const openRun = metaharness(timed(RUN))
// A closed run whose one read's result recorded neither content nor a byte count, and one beside it that did.
const untoldRun = metaharness([start(), call('c-1', 'Read', { file_path: '/x' }), result('c-1', { content: null, bytes: null }), ended(), closed(4)])
const partlyToldRun = metaharness([start(), call('c-1', 'Read', { file_path: '/x' }), result('c-1', { content: null, bytes: null }), call('c-2', 'Read', { file_path: '/y' }), result('c-2', { content: 'hello' }), ended(), closed(6)])
const withOpaque = metaharness(timed([...RUN.slice(0, -1), opaque(), RUN[RUN.length - 1] as Event, closed(RUN.length + 1)]))
const bare = metaharness([text('only text')])

interface Case {
  expect: string
  transcript: string
  verdict: RowVerdict
  /** Part of the outcome to match: the cited events, the note, or the reason. */
  outcome?: Record<string, unknown>
}

const CASES: Record<(typeof KIND_NAMES)[number], Case[]> = {
  'env.plugin_loaded': [
    { expect: '{env.plugin_loaded: {plugin: aep, version: "0.1.0", source: aep@inline}}', transcript: closedRun, verdict: 'ok', outcome: { events: [0], note: 'aep 0.1.0 from aep@inline is loaded' } },
    { expect: '{env.plugin_loaded: {plugin: aep, version: "9.9.9"}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'aep plugins[].version is 0.1.0, expected 9.9.9' } },
    { expect: '{env.plugin_loaded: {plugin: aep}}', transcript: metaharness([start({ plugins: null })]), verdict: 'unknown', outcome: { reason: 'field_absent', field: 'plugins' } },
  ],
  'env.exclusive': [
    { expect: '{env.exclusive: {plugins: [aep]}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'exactly aep loaded' } },
    { expect: '{env.exclusive: {plugins: [aep, track]}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'track not loaded' } },
    { expect: '{env.exclusive: {plugins: [aep]}}', transcript: bare, verdict: 'unknown', outcome: { reason: 'no_session_start' } },
  ],
  'env.output_style': [
    { expect: '{env.output_style: {equals: default}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'output_style = default' } },
    { expect: '{env.output_style: {equals: Operator}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{env.output_style: {equals: default}}', transcript: metaharness([start({ output_style: null })]), verdict: 'unknown', outcome: { field: 'output_style' } },
  ],
  'env.skill_available': [
    { expect: '{env.skill_available: {skill: "aep-planning:planning"}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'skill aep-planning:planning is among 1 offered' } },
    { expect: '{skill.available: {skill: "aep-planning:nonesuch"}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{env.skill_available: {skill: x}}', transcript: metaharness([start({ skills: null })]), verdict: 'unknown', outcome: { field: 'skills' } },
  ],
  'env.agent_available': [
    { expect: '{env.agent_available: {agent: reviewer}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{env.agent_available: {agent: nonesuch}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'agent nonesuch is not among the 1 offered' } },
    { expect: '{env.agent_available: {agent: reviewer}}', transcript: bare, verdict: 'unknown' },
  ],
  'env.tool_available': [
    { expect: '{env.tool_available: {tool: Bash}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'tool Bash is among 4 offered' } },
    { expect: '{env.tool_available: {tool: Task, available: false}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'tool Task is not among the 4 offered' } },
    { expect: '{env.tool_available: {only: [Bash, Read]}}', transcript: closedRun, verdict: 'gap', outcome: { note: '2 unexpected tool(s): Skill, Write' } },
    { expect: '{env.tool_available: {operations: [file.edit], tools: [workspace_write]}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'tool workspace_write is not among the 4 offered' } },
    // Read off the tools a three-verb run is writer-less; its operations say it could write.
    { expect: '{env.tool_available: {operations: [file.write], tools: [Write]}}', transcript: metaharness([start({ offered_tools: ['tool_invoke'] })]), verdict: 'ok', outcome: { note: 'operation file.write is among 3 offered' } },
    { expect: '{env.tool_available: {tool: Bash}}', transcript: metaharness([start({ offered_tools: null })]), verdict: 'unknown', outcome: { reason: 'field_absent', field: 'tools' } },
  ],
  'env.mcp_servers': [
    { expect: '{env.mcp_servers: {count: {at_most: 0}}}', transcript: closedRun, verdict: 'ok', outcome: { note: '0 MCP server(s), bound at most 0' } },
    { expect: '{env.mcp_servers: {count: {at_most: 0}}}', transcript: metaharness([start({ mcp_servers: [{ name: 'x', status: 'needs-auth' }] })]), verdict: 'gap', outcome: { note: '1 MCP server(s), expected at most 0' } },
    { expect: '{env.mcp_servers: {count: {at_most: 0}}}', transcript: metaharness([start({ mcp_servers: null })]), verdict: 'unknown', outcome: { field: 'mcp_servers' } },
  ],
  'env.model': [
    { expect: '{env.model: {equals: claude-sonnet-5}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{env.model: {equals: sonnet}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'model = claude-sonnet-5, expected sonnet' } },
    { expect: '{env.model: {equals: x}}', transcript: metaharness([start({ model: null })]), verdict: 'unknown' },
  ],
  'env.permission_mode': [
    { expect: '{env.permission_mode: {equals: default}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{env.permission_mode: {equals: acceptEdits}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{env.permission_mode: {equals: default}}', transcript: bare, verdict: 'unknown', outcome: { reason: 'no_session_start' } },
  ],
  'env.api_key_source': [
    { expect: '{env.api_key_source: {equals: none}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'api_key_source = none' } },
    { expect: '{env.api_key_source: {equals: ANTHROPIC_API_KEY}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{env.api_key_source: {equals: none}}', transcript: metaharness([start({ credential_source: null })]), verdict: 'unknown', outcome: { field: 'api_key_source' } },
  ],
  'skill.invoked': [
    { expect: '{skill.invoked: {skill: "aep-planning:planning"}}', transcript: closedRun, verdict: 'ok', outcome: { events: [6], note: 'aep-planning:planning invoked 1 time(s), at least 1' } },
    { expect: '{skill.invoked: {skill: "aep-planning:planning", count: {exactly: 0}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{skill.invoked: {skill: "aep-planning:planning", count: {exactly: 1}}}', transcript: withOpaque, verdict: 'unknown', outcome: { reason: 'opaque_events', events: [15], types: ['quantum_event'] } },
  ],
  'skill.completed': [
    { expect: '{skill.completed: {skill: "aep-planning:planning"}}', transcript: closedRun, verdict: 'ok', outcome: { events: [6, 7] } },
    {
      expect: '{skill.completed: {skill: s}}',
      transcript: metaharness([call('c-1', 'Skill', { skill: 's' }), result('c-1', { tool_use_result: { commandName: 's', success: false } })]),
      verdict: 'gap',
      outcome: { note: 's completed 0 time(s) with success=true, at least 1' },
    },
    {
      expect: '{skill.completed: {skill: s}}',
      transcript: metaharness([call('c-1', 'Skill', { skill: 's' }), result('c-1', { tool_use_result: null })]),
      verdict: 'unknown',
      outcome: { reason: 'result_field_absent', call_event: 0, result_event: 1, field: 'commandName' },
    },
    // A ceiling that holds is a claim about the whole run: an open stream may hold another completed load.
    { expect: '{skill.completed: {skill: "aep-planning:planning", count: {at_most: 1}}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{skill.completed: {skill: "aep-planning:planning", count: {at_most: 1}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{skill.completed: {skill: "aep-planning:planning", count: {at_least: 1}}}', transcript: openRun, verdict: 'ok' },
  ],
  'tool.called': [
    { expect: '{tool.called: {tool: Bash, args: {command: {contains: "cargo test"}}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [2], note: 'Bash(command ~ "cargo test") called 1 time(s), at least 1' } },
    { expect: '{tool.called: {operations: [file.write], subject: {glob: "file:*/src/*"}, count: {at_least: 2}}}', transcript: closedRun, verdict: 'gap', outcome: { events: [4] } },
    // An unread event could be a second call: a ceiling cannot be told.
    { expect: '{tool.called: {tool: Read, count: {at_most: 2}}}', transcript: withOpaque, verdict: 'unknown', outcome: { reason: 'opaque_events' } },
    // …but an unread event cannot un-meet a floor that is already met.
    { expect: '{tool.called: {tool: Read, count: {at_least: 2}}}', transcript: withOpaque, verdict: 'ok' },
    // A ceiling that holds is a claim about the whole run, as an absence is: an open stream may hold more calls.
    { expect: '{tool.called: {tool: Read, count: {at_most: 2}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [8, 10] } },
    { expect: '{tool.called: {tool: Read, count: {at_most: 2}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{tool.called: {tool: Read, count: {exactly: 0}}}', transcript: openRun, verdict: 'gap', outcome: { events: [8, 10] } },
    { expect: '{tool.called: {tool: Read, count: {at_least: 1}}}', transcript: openRun, verdict: 'ok' },
  ],
  'tool.absent': [
    { expect: '{tool.absent: {tool: Edit}}', transcript: closedRun, verdict: 'ok', outcome: { events: [], note: 'no call matches Edit, and the run closed the stream (stream.closed, completed)' } },
    { expect: '{tool.absent: {operations: [file.write]}}', transcript: closedRun, verdict: 'gap', outcome: { events: [4], note: '1 call(s) match file.write' } },
    { expect: '{tool.absent: {tool: Edit}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed', markers: ['stream.closed', 'hermetic.stream_complete'] } },
  ],
  'tool.result': [
    { expect: '{tool.result: {tool: Write, result: {userModified: {equals: false}}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [5], note: 'every matched result satisfies userModified == false' } },
    { expect: '{tool.result: {tool: Bash, result: {stdout: {regex: "^fail"}}}}', transcript: closedRun, verdict: 'gap', outcome: { events: [3] } },
    { expect: '{tool.result: {tool: Bash, result: {stderr: {glob: "*?"}}}}', transcript: closedRun, verdict: 'unknown', outcome: { reason: 'result_field_absent', call_event: 2, result_event: 3, field: 'stderr' } },
    { expect: '{tool.result: {tool: Edit, result: {x: {equals: 1}}}}', transcript: closedRun, verdict: 'unknown', outcome: { reason: 'nothing_in_scope', selector: 'Edit' } },
    // "Every result" is a claim about the whole run: an open stream may hold a result that does not satisfy it. A result that does not is a gap on any stream.
    { expect: '{tool.result: {tool: Write, result: {userModified: {equals: false}}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{tool.result: {tool: Bash, result: {stdout: {regex: "^fail"}}}}', transcript: openRun, verdict: 'gap', outcome: { events: [3] } },
  ],
  'tool.result_bytes': [
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 100}, per: each}}', transcript: closedRun, verdict: 'ok', outcome: { events: [9, 11] } },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 15}}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'Read returned 17B in total, at most 15' } },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 100}}}', transcript: metaharness([call('c-1', 'Read', { file_path: '/x' })]), verdict: 'unknown', outcome: { reason: 'no_result_correlated', call_event: 0 } },
    // Every result's size, or a total's ceiling, over an open stream: more results may follow. A floor met, or a result over the bound, decides.
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 100}, per: each}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 100}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_least: 1}}}', transcript: openRun, verdict: 'ok' },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 10}, per: each}}', transcript: openRun, verdict: 'gap', outcome: { note: '1 result(s) are outside at most 10 bytes' } },
    // A result that recorded neither content nor a byte count (a b10x `tool-completed`) carried an unknown amount, not 0 bytes.
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 100}, per: each}}', transcript: untoldRun, verdict: 'unknown', outcome: { reason: 'result_field_absent', call_event: 1, result_event: 2, field: 'content' } },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 100}}}', transcript: untoldRun, verdict: 'unknown', outcome: { reason: 'result_field_absent', field: 'content' } },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_least: 1}}}', transcript: untoldRun, verdict: 'unknown', outcome: { reason: 'result_field_absent', field: 'content' } },
    // What is known still decides: a result over the bound, a floor the known bytes meet, a byte count recorded without content.
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 3}, per: each}}', transcript: partlyToldRun, verdict: 'gap', outcome: { events: [4] } },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_least: 5}}}', transcript: partlyToldRun, verdict: 'ok' },
    { expect: '{tool.result_bytes: {tool: Read, bytes: {at_most: 100}, per: each}}', transcript: metaharness([start(), call('c-1', 'Read', { file_path: '/x' }), result('c-1', { content: null, bytes: 50 }), ended(), closed(4)]), verdict: 'ok' },
  ],
  'tool.failed': [
    { expect: '{tool.failed: {tool: Bash, count: {exactly: 0}}}', transcript: closedRun, verdict: 'ok', outcome: { note: '0 of 1 Bash call(s) failed, exactly 0' } },
    { expect: '{tool.failed: {tool: Read, count: {exactly: 0}}}', transcript: closedRun, verdict: 'gap', outcome: { events: [9], note: '1 of 2 Read call(s) failed, exactly 0' } },
    // This wire may carry any vendor: an absent flag is not success.
    { expect: '{tool.failed: {tool: Read, count: {exactly: 0}}}', transcript: metaharness([call('c-1', 'Read', {}), result('c-1', { is_error: null })]), verdict: 'unknown', outcome: { reason: 'result_field_absent', field: 'is_error' } },
    // "No call failed" over an open stream: a failure may follow. A failure seen, or a floor met, decides.
    { expect: '{tool.failed: {tool: Bash, count: {exactly: 0}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{tool.failed: {tool: Read, count: {exactly: 0}}}', transcript: openRun, verdict: 'gap', outcome: { events: [9] } },
    { expect: '{tool.failed: {tool: Read, count: {at_least: 1}}}', transcript: openRun, verdict: 'ok' },
  ],
  'tool.error_rate': [
    { expect: '{tool.error_rate: {tool: Read, rate: {at_most: 0.5}}}', transcript: closedRun, verdict: 'ok', outcome: { note: '1 of 2 Read call(s) failed — rate 0.500, at most 0.5' } },
    { expect: '{tool.error_rate: {tool: Read, rate: {at_most: 0.1}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{tool.error_rate: {tool: Edit, rate: {at_most: 0.1}}}', transcript: closedRun, verdict: 'unknown', outcome: { reason: 'nothing_in_scope' } },
    // Calls an open stream did not write move a rate either way: neither an ok nor a gap is proven.
    { expect: '{tool.error_rate: {tool: Read, rate: {at_most: 0.5}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{tool.error_rate: {tool: Read, rate: {at_most: 0.1}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
  ],
  'tool.repeated': [
    { expect: '{tool.repeated: {tool: Read, count: {at_most: 1}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [8, 10], note: '1 identical Read call group(s), at most 1' } },
    { expect: '{tool.repeated: {tool: Read, count: {exactly: 0}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{tool.repeated: {tool: Read, count: {exactly: 1}}}', transcript: withOpaque, verdict: 'unknown', outcome: { reason: 'opaque_events' } },
    { expect: '{tool.repeated: {tool: Read, count: {at_most: 1}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
  ],
  order: [
    { expect: '{order: {first: {tool: Bash}, before: {tool: Write}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [2, 4], note: 'first Bash at 2, first Write at 4' } },
    { expect: '{order: {first: {tool: Write}, before: {tool: Bash}}}', transcript: closedRun, verdict: 'gap', outcome: { events: [4, 2] } },
    { expect: '{order: {first: {tool: Bash}, before: {tool: Edit}}}', transcript: closedRun, verdict: 'unknown', outcome: { reason: 'never_occurred', selector: 'Edit' } },
    // An event nobody could read before the occurrence that decided could itself have been the other call: neither side is proven.
    { expect: '{order: {first: {tool: Bash}, before: {tool: Write}}}', transcript: metaharness([start(), opaque(), ...RUN.slice(2), closed(RUN.length)]), verdict: 'unknown', outcome: { reason: 'opaque_events', events: [1], types: ['quantum_event'] } },
    { expect: '{order: {first: {tool: Write}, before: {tool: Bash}}}', transcript: metaharness([start(), opaque(), ...RUN.slice(2), closed(RUN.length)]), verdict: 'unknown', outcome: { reason: 'opaque_events' } },
    // An unread event after the occurrence that decided changes nothing.
    { expect: '{order: {first: {tool: Bash}, before: {tool: Write}}}', transcript: withOpaque, verdict: 'ok', outcome: { events: [2, 4] } },
  ],
  result: [
    { expect: '{result: {is_error: false, terminal_reason: completed}}', transcript: closedRun, verdict: 'ok', outcome: { events: [15], note: 'is_error=false, terminal_reason=completed' } },
    { expect: '{result: {is_error: false}}', transcript: metaharness([ended(), ended({ is_error: true, terminal_reason: 'api_error' }), ended()]), verdict: 'gap', outcome: { events: [1] } },
    // A session the account's rate limit rejected is not a session that failed.
    { expect: '{result: {is_error: false}}', transcript: metaharness([ended(), rateLimit({ status: 'rejected' }), ended({ is_error: true })]), verdict: 'unknown', outcome: { reason: 'run_cut_by_rate_limit', outcome_event: 2, limit_event: 1, window: 'five_hour' } },
    { expect: '{result: {api_error_status: absent}}', transcript: bare, verdict: 'unknown', outcome: { reason: 'no_run_outcome' } },
    // A session opened after the last terminal record has none of its own: how it ended is unknown. An earlier session that failed is still a gap.
    { expect: '{result: {is_error: false}}', transcript: metaharness([start(), ended(), start(), text('working', null)]), verdict: 'unknown', outcome: { reason: 'no_run_outcome' } },
    { expect: '{result: {is_error: false}}', transcript: metaharness([start(), ended({ is_error: true }), start()]), verdict: 'gap', outcome: { events: [1] } },
    { expect: '{result: {is_error: false}}', transcript: metaharness([start(), ended(), start(), ended()]), verdict: 'ok', outcome: { events: [3] } },
  ],
  'permission.denied': [
    { expect: '{permission.denied: {count: {at_most: 0}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'permission_denials = 0, at most 0' } },
    {
      // The seam's denial and the vendor's listing of the same call are one denial.
      expect: '{permission.denied: {count: {at_most: 0}}}',
      transcript: metaharness([
        { event: 'tool.decided', call_id: 'c-1', decision: { decision: 'deny', reason: 'no' }, decided_by: 'embedder', seam: 'hook', latency_ms: 1 },
        ended({ permission_denials: [{ tool_name: 'Bash', tool_use_id: 'c-1', tool_input: {} }] }),
      ]),
      verdict: 'gap',
      outcome: { note: 'permission_denials = 1, at most 0' },
    },
    { expect: '{permission.denied: {count: {at_most: 0}}}', transcript: metaharness([{ event: 'session.ended', is_error: false }]), verdict: 'unknown', outcome: { field: 'permission_denials' } },
  ],
  'subagent.spawned': [
    { expect: '{subagent.spawned: {count: {at_most: 0}}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{subagent.spawned: {count: {at_least: 1}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{subagent.spawned: {count: {at_most: 0}}}', transcript: metaharness([ended({ subagents_spawned: null })]), verdict: 'unknown', outcome: { field: 'subagents_spawned' } },
  ],
  'text.matches': [
    { expect: '{text.matches: {contains: tests pass}}', transcript: closedRun, verdict: 'ok', outcome: { events: [14], note: 'the final assistant text (21 chars) ~ "tests pass"' } },
    { expect: '{text.matches: {regex: "^refused"}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{text.matches: {contains: x}}', transcript: metaharness([ended()]), verdict: 'unknown', outcome: { reason: 'no_final_text' } },
    { expect: '{text.matches: {contains: tests pass}}', transcript: metaharness([start(), text('Checking that all tests pass.', null), call('c-1', 'Bash', { command: 'cargo test' }), result('c-1', { content: 'test result: FAILED' }), ended(), closed(5)]), verdict: 'unknown', outcome: { reason: 'calls_after_last_text', text_event: 1, call_events: [2] } },
    // An answer streamed in pieces (the b10x loop writes one text event per delta) is judged whole.
    { expect: '{text.matches: {exact: "Not all tests pass."}}', transcript: metaharness([start(), text('Not all', null), text(' tests pass.', null), ended()]), verdict: 'ok', outcome: { events: [1, 2] } },
    { expect: '{text.matches: {glob: " tests pass*"}}', transcript: metaharness([start(), text('Not all', null), text(' tests pass.', null), ended()]), verdict: 'gap', outcome: { events: [1, 2] } },
    // Two answers, a request apart: the last is the final text.
    { expect: '{text.matches: {exact: "second"}}', transcript: metaharness([start(), text('first', null), request(null), text('second', null), ended()]), verdict: 'ok', outcome: { events: [2] } },
  ],
  'rate_limit.status': [
    { expect: '{rate_limit.status: {allowed: [allowed, allowed_warning]}}', transcript: closedRun, verdict: 'ok', outcome: { events: [13] } },
    { expect: '{rate_limit.status: {allowed: [allowed]}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'status = allowed_warning, allowed allowed' } },
    { expect: '{rate_limit.status: {allowed: [allowed]}}', transcript: bare, verdict: 'unknown', outcome: { reason: 'no_rate_limit_event' } },
    // The last state written is the run's last only where the run ended after it: a stream cut short may have moved on, either way.
    { expect: '{rate_limit.status: {allowed: [allowed]}}', transcript: metaharness([{ event: 'rate_limit', info: { status: 'allowed' } }]), verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{rate_limit.status: {allowed: [allowed]}}', transcript: metaharness([{ event: 'rate_limit', info: { status: 'rejected' } }]), verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{rate_limit.status: {allowed: [allowed]}}', transcript: metaharness([{ event: 'rate_limit', info: { status: 'allowed' } }, ended()]), verdict: 'ok' },
  ],
  'rate_limit.overage': [
    { expect: '{rate_limit.overage: {equals: false}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{rate_limit.overage: {equals: true}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{rate_limit.overage: {equals: false}}', transcript: metaharness([{ event: 'rate_limit', info: { status: 'allowed' } }, ended()]), verdict: 'unknown', outcome: { field: 'rate_limit.is_using_overage' } },
  ],
  'rate_limit.utilization': [
    { expect: '{rate_limit.utilization: {at_most: 0.9}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'utilization = 0.62, at most 0.9' } },
    { expect: '{rate_limit.utilization: {at_most: 0.5}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{rate_limit.utilization: {at_most: 0.9}}', transcript: bare, verdict: 'unknown' },
  ],
  turns: [
    { expect: '{turns: {count: {at_most: 40}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'num_turns = 4, at most 40' } },
    { expect: '{turns: {count: {at_most: 3}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{turns: {count: {at_most: 3}}}', transcript: openRun.split('\n').slice(0, 3).join('\n'), verdict: 'unknown', outcome: { reason: 'no_run_outcome' } },
    // A session opened after the terminal record: the record's figures are the first session's, not the run's.
    { expect: '{turns: {count: {at_most: 40}}}', transcript: metaharness([start(), ended(), start(), text('more', null)]), verdict: 'unknown', outcome: { reason: 'no_run_outcome' } },
  ],
  api_requests: [
    { expect: '{api_requests: {count: {exactly: 2}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [], note: '2 api requests, exactly 2' } },
    // Two records sharing an id are one request; an unlabelled one is its own.
    { expect: '{api_requests: {count: {at_most: 1}}}', transcript: metaharness([request('r'), request('r'), request(null)]), verdict: 'gap', outcome: { note: '2 api requests, at most 1' } },
    { expect: '{api_requests: {count: {exactly: 2}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{api_requests: {count: {at_least: 2}}}', transcript: openRun, verdict: 'ok' },
  ],
  'events.assistant': [
    { expect: '{events.assistant: {count: {exactly: 2}}}', transcript: closedRun, verdict: 'ok', outcome: { note: '2 assistant events, exactly 2' } },
    { expect: '{events.assistant: {count: {at_most: 2}}}', transcript: metaharness([request('r'), request('r'), request(null)]), verdict: 'gap' },
    { expect: '{events.assistant: {count: {at_most: 2}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
  ],
  iterations: [
    { expect: '{iterations: {count: {at_most: 5}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'usage.iterations = 3, at most 5' } },
    { expect: '{iterations: {count: {at_most: 1}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{iterations: {count: {at_most: 1}}}', transcript: metaharness([ended({ usage: null })]), verdict: 'unknown', outcome: { field: 'usage' } },
  ],
  'tokens.input': [
    { expect: '{tokens.input: {count: {at_most: 100}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'input_tokens = 10, at most 100' } },
    { expect: '{tokens.input: {count: {at_most: 5}, model: claude-sonnet-5}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'input_tokens for claude-sonnet-5 = 10, at most 5' } },
    { expect: '{tokens.input: {count: {at_most: 5}, model: claude-opus-4}}', transcript: closedRun, verdict: 'unknown', outcome: { reason: 'model_not_used', model: 'claude-opus-4' } },
  ],
  'tokens.output': [
    { expect: '{tokens.output: {count: {at_most: 100}}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{tokens.output: {count: {at_most: 5}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{tokens.output: {count: {at_most: 5}}}', transcript: metaharness([ended({ usage: usageNull() })]), verdict: 'unknown', outcome: { field: 'output_tokens' } },
  ],
  'tokens.total': [
    { expect: '{tokens.total: {count: {exactly: 30}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'input_tokens + output_tokens = 30, exactly 30' } },
    { expect: '{tokens.total: {count: {at_most: 29}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{tokens.total: {count: {at_most: 29}}}', transcript: metaharness([ended({ usage: usageNull() })]), verdict: 'unknown', outcome: { field: 'input_tokens + output_tokens' } },
  ],
  'tokens.thinking': [
    { expect: '{tokens.thinking: {count: {at_most: 500}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'usage.thinking_tokens = 64, at most 500' } },
    { expect: '{tokens.thinking: {count: {at_most: 10}}}', transcript: closedRun, verdict: 'gap' },
    // The live estimate (96) is never the billed figure.
    { expect: '{tokens.thinking: {count: {at_most: 500}}}', transcript: metaharness([{ event: 'thinking.estimate', estimate: 96, delta: 96 }, ended({ usage: usageNull() })]), verdict: 'unknown', outcome: { field: 'usage.thinking_tokens' } },
  ],
  'thinking.estimated': [
    { expect: '{thinking.estimated: {count: {at_least: 1}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [12], note: 'last thinking estimate 96, at least 1' } },
    { expect: '{thinking.estimated: {count: {at_most: 10}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{thinking.estimated: {count: {at_least: 1}}}', transcript: metaharness([ended()]), verdict: 'unknown', outcome: { reason: 'no_thinking_estimate' } },
    // The estimate only grows: a ceiling that holds needs the run to have ended after it; a floor met, or a ceiling exceeded, decides.
    { expect: '{thinking.estimated: {count: {at_most: 500}}}', transcript: metaharness([{ event: 'thinking.estimate', estimate: 96, delta: 96 }]), verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{thinking.estimated: {count: {at_most: 500}}}', transcript: metaharness([{ event: 'thinking.estimate', estimate: 96, delta: 96 }, ended()]), verdict: 'ok' },
    { expect: '{thinking.estimated: {count: {at_most: 10}}}', transcript: metaharness([{ event: 'thinking.estimate', estimate: 96, delta: 96 }]), verdict: 'gap' },
    { expect: '{thinking.estimated: {count: {at_least: 1}}}', transcript: metaharness([{ event: 'thinking.estimate', estimate: 96, delta: 96 }]), verdict: 'ok' },
  ],
  'cost.total': [
    { expect: '{cost.total: {at_most_usd: 1.0}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'cost = $0.2500, at most 1' } },
    { expect: '{cost.total: {at_most_usd: 0.01, model: claude-sonnet-5}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'cost for claude-sonnet-5 = $0.2500, at most 0.01' } },
    { expect: '{cost.total: {at_most_usd: 1.0}}', transcript: metaharness([ended({ total_cost_usd: null })]), verdict: 'unknown', outcome: { field: 'total_cost_usd' } },
  ],
  'cache.used': [
    { expect: '{cache.used: {equals: true}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'cache read 100 token(s), used = true' } },
    { expect: '{cache.used: {equals: false}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'cache read 100 token(s), used = true, expected false' } },
    { expect: '{cache.used: {equals: true}}', transcript: metaharness([ended({ usage: usageNull() })]), verdict: 'unknown', outcome: { field: 'usage.cache_read_input_tokens' } },
  ],
  'cache.read_tokens': [
    { expect: '{cache.read_tokens: {count: {at_least: 1}}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{cache.read_tokens: {count: {at_most: 1}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{cache.read_tokens: {count: {at_most: 1}, model: m}}', transcript: metaharness([ended({ model_usage: null })]), verdict: 'unknown', outcome: { field: 'model_usage' } },
  ],
  'cache.created_tokens': [
    { expect: '{cache.created_tokens: {count: {at_most: 100}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'cache_creation_input_tokens = 50, at most 100' } },
    { expect: '{cache.created_tokens: {count: {at_most: 10}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{cache.created_tokens: {count: {at_most: 10}}}', transcript: bare, verdict: 'unknown', outcome: { reason: 'no_run_outcome' } },
  ],
  'cache.hit_ratio': [
    { expect: '{cache.hit_ratio: {at_least: 0.9}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'hit ratio 0.90909 = 100 / (100 + 10), at least 0.9' } },
    { expect: '{cache.hit_ratio: {at_least: 0.95}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{cache.hit_ratio: {at_least: 0.9}}', transcript: metaharness([ended({ usage: usageOfZero() })]), verdict: 'unknown', outcome: { reason: 'ratio_undefined' } },
  ],
  'usage.trend': [
    { expect: '{usage.trend: {field: cache_read_input_tokens, trend: non_decreasing}}', transcript: closedRun, verdict: 'ok', outcome: { events: [14], note: 'cache_read_input_tokens moved up across 2 requests and never the other way, 100 to 250' } },
    { expect: '{usage.trend: {field: cache_read_input_tokens, trend: non_increasing}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'cache_read_input_tokens is not non-increasing across 2 requests: request 1 is 250 after 100 at request 0' } },
    { expect: '{usage.trend: {field: input_tokens, trend: non_decreasing}}', transcript: closedRun, verdict: 'unknown', outcome: { reason: 'series_did_not_move', field: 'requests[].input_tokens', requests: 2 } },
    // An open stream may hold a later request that goes the wrong way; a wrong-way pair is a gap on any stream.
    { expect: '{usage.trend: {field: cache_read_input_tokens, trend: non_decreasing}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{usage.trend: {field: cache_read_input_tokens, trend: non_increasing}}', transcript: openRun, verdict: 'gap' },
  ],
  'usage.share': [
    { expect: '{usage.share: {field: cache_creation_input_tokens, at_most: 0.9}}', transcript: closedRun, verdict: 'ok', outcome: { note: "the largest single request's cache_creation_input_tokens share is 0.85714 = 300 / 350 at request 0 of 2, at most 0.9" } },
    // Cited at the request's own text by id (its usage line produced no event).
    { expect: '{usage.share: {field: cache_creation_input_tokens, at_most: 0.6}}', transcript: closedRun, verdict: 'gap', outcome: { events: [1] } },
    { expect: '{usage.share: {field: cache_creation_input_tokens, at_most: 0.6}}', transcript: bare, verdict: 'unknown', outcome: { reason: 'no_requests' } },
    { expect: '{usage.share: {field: cache_creation_input_tokens, at_most: 0.9}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
  ],
  'duration.total': [
    { expect: '{duration.total: {ms: {at_most: 60000}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'duration_ms = 5000, at most 60000' } },
    { expect: '{duration.total: {ms: {at_most: 1000}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{duration.total: {ms: {at_most: 1000}}}', transcript: metaharness([ended({ duration_ms: null })]), verdict: 'unknown' },
  ],
  'duration.api': [
    { expect: '{duration.api: {ms: {at_most: 60000}}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{duration.api: {ms: {at_most: 1000}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{duration.api: {ms: {at_most: 1000}}}', transcript: metaharness([ended({ duration_api_ms: null })]), verdict: 'unknown', outcome: { field: 'duration_api_ms' } },
  ],
  ttft: [
    { expect: '{ttft: {ms: {at_most: 5000}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'ttft_ms = 900, at most 5000' } },
    { expect: '{ttft: {ms: {at_most: 100}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{ttft: {ms: {at_most: 100}}}', transcript: metaharness([ended({ ttft_ms: null })]), verdict: 'unknown', outcome: { field: 'ttft_ms' } },
  ],
  time_to_request: [
    { expect: '{time_to_request: {ms: {at_most: 500}}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{time_to_request: {ms: {at_most: 10}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{time_to_request: {ms: {at_most: 10}}}', transcript: bare, verdict: 'unknown' },
  ],
  'step.gen_time': [
    // Events are 100 ms apart; the usage line between the Bash result and the Write is no event.
    { expect: '{step.gen_time: {tool: Write, ms: {at_most: 500}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [4], note: "every Write step's gen is at most 500 ms across 1 step(s)" } },
    { expect: '{step.gen_time: {tool: Write, ms: {at_most: 100}}}', transcript: closedRun, verdict: 'gap', outcome: { events: [4] } },
    { expect: '{step.gen_time: {tool: Read, ms: {at_most: 100}}}', transcript: metaharness([call('c-1', 'Read', {}), result('c-1')]), verdict: 'unknown', outcome: { reason: 'timestamp_absent', event: 0 } },
    { expect: '{step.gen_time: {tool: Write, ms: {at_most: 500}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
  ],
  'step.exec_time': [
    { expect: '{step.exec_time: {tool: Bash, ms: {at_most: 200}}}', transcript: closedRun, verdict: 'ok', outcome: { note: "every Bash step's exec is at most 200 ms across 1 step(s)" } },
    { expect: '{step.exec_time: {tool: Bash, ms: {at_most: 50}}}', transcript: closedRun, verdict: 'gap', outcome: { note: '1 of 1 Bash step(s) are outside at most 50 ms of exec' } },
    { expect: '{step.exec_time: {tool: Bash, ms: {at_most: 50}}}', transcript: metaharness([call('c-1', 'Bash', {})]), verdict: 'unknown', outcome: { reason: 'timestamp_absent', event: 0 } },
    // "Every step" over an open stream: a slower step may follow. A step over the bound is a gap on any stream.
    { expect: '{step.exec_time: {tool: Bash, ms: {at_most: 200}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{step.exec_time: {tool: Bash, ms: {at_most: 50}}}', transcript: openRun, verdict: 'gap' },
  ],
  'time.inference_total': [
    { expect: '{time.inference_total: {ms: {at_most: 10000}}}', transcript: closedRun, verdict: 'ok', outcome: { events: [2, 4, 6, 8, 10] } },
    { expect: '{time.inference_total: {ms: {at_most: 100}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{time.inference_total: {ms: {at_most: 100}}}', transcript: bare, verdict: 'unknown', outcome: { reason: 'nothing_in_scope', selector: 'any tool' } },
    { expect: '{time.inference_total: {ms: {at_most: 10000}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    // Unread events may hold steps: the total is a lower bound, so a ceiling cannot be told and a floor met holds.
    { expect: '{time.inference_total: {ms: {at_most: 10000}}}', transcript: withOpaque, verdict: 'unknown', outcome: { reason: 'opaque_events' } },
    { expect: '{time.inference_total: {ms: {at_least: 100}}}', transcript: withOpaque, verdict: 'ok' },
  ],
  'time.tool_exec_total': [
    { expect: '{time.tool_exec_total: {ms: {exactly: 500}}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'exec total 500 ms across 5 step(s), exactly 500' } },
    { expect: '{time.tool_exec_total: {ms: {at_most: 100}}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{time.tool_exec_total: {ms: {at_most: 100}}}', transcript: openRun.replace(/,"at":"[^"]*"/g, ''), verdict: 'unknown', outcome: { reason: 'timestamp_absent', event: 2 } },
    { expect: '{time.tool_exec_total: {ms: {exactly: 500}}}', transcript: openRun, verdict: 'unknown', outcome: { reason: 'stream_not_closed' } },
    { expect: '{time.tool_exec_total: {ms: {at_least: 100}}}', transcript: openRun, verdict: 'ok' },
  ],
  speed: [
    { expect: '{speed: {equals: standard}}', transcript: closedRun, verdict: 'ok', outcome: { note: 'usage.speed = standard' } },
    { expect: '{speed: {equals: fast}}', transcript: closedRun, verdict: 'gap' },
    { expect: '{speed: {equals: standard}}', transcript: metaharness([ended({ usage: usageNull() })]), verdict: 'unknown', outcome: { field: 'usage.speed' } },
  ],
  service_tier: [
    { expect: '{service_tier: {equals: standard}}', transcript: closedRun, verdict: 'ok' },
    { expect: '{service_tier: {equals: priority}}', transcript: closedRun, verdict: 'gap', outcome: { note: 'usage.service_tier = standard, expected priority' } },
    { expect: '{service_tier: {equals: standard}}', transcript: metaharness([ended({ usage: null })]), verdict: 'unknown', outcome: { field: 'usage' } },
  ],
}

function usageNull(): Event {
  return {
    input_tokens: null,
    output_tokens: null,
    cache_read_input_tokens: null,
    cache_creation_input_tokens: null,
    service_tier: null,
    thinking_tokens: null,
    iterations: null,
    speed: null,
    cost_usd: null,
  }
}

function usageOfZero(): Event {
  return { ...usageNull(), input_tokens: 0, cache_read_input_tokens: 0 }
}

describe('every kind decides against real event sequences', () => {
  for (const name of KIND_NAMES) {
    describe(name, () => {
      const cases = CASES[name]
      it('has an ok, a gap and an unknown case', () => {
        const verdicts = new Set(cases.map((entry) => entry.verdict))
        expect(verdicts.has('ok')).toBe(true)
        expect(verdicts.has('gap')).toBe(true)
        expect(verdicts.has('unknown')).toBe(true)
      })
      cases.forEach((entry, index) => {
        it(`${entry.verdict} #${index + 1}: ${entry.expect}`, () => {
          const row = rowOf(entry.expect, entry.transcript)
          expect(row.kind).toBe(name)
          expect(row.verdict, JSON.stringify(row.outcome)).toBe(entry.verdict)
          if (entry.outcome) expect(row.outcome).toMatchObject(entry.outcome)
        })
      })
    })
  }
})

describe('skill.invoked over a load no reader can see', () => {
  const shell = (line: string, subjects: string[]) => metaharness([start(), call('c-1', 'Bash', { command: line }, { operations: ['shell'], subjects }), result('c-1'), ended(), closed(4)])
  const never = '{skill.invoked: {skill: deploy, count: {at_most: 0}}}'

  it('a glob or a script that may read the skill’s SKILL.md leaves "never loaded" undecided; a plain read of it is a load', () => {
    expect(rowOf(never, shell('cat .claude/skills/*/SKILL.md', ['proc:cat']))).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['.claude/skills/*/SKILL.md'] } })
    expect(rowOf(never, shell(`python3 -c "print(open('.claude/skills/deploy/SKILL.md').read())"`, ['proc:python3']))).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread' } })
    expect(rowOf(never, shell('cat .claude/skills/deploy/SKILL.md', ['proc:cat', 'file:.claude/skills/deploy/SKILL.md'])).verdict).toBe('gap')
    expect(rowOf(never, shell('cat .claude/skills/review/SKILL.md README.md', ['proc:cat', 'file:.claude/skills/review/SKILL.md', 'file:README.md'])).verdict).toBe('ok')
  })
})

describe('a stream that concatenates sessions', () => {
  // A driven run: a first session as the spec wants it, then a second that opens its own.
  const twoSessions = (second: Event) => metaharness([start(), text('one'), ended(), start({ session_id: 's-2', ...second }), text('two'), ended()])

  it('is the run’s: a second session that contradicts the claim is its gap, citing that session’s opening', () => {
    const evil = twoSessions({ model: 'claude-opus-9', permission_mode: 'bypassPermissions', plugins: [{ name: 'evil', source: 'x', version: null }], mcp_servers: [{ name: 'evil', status: 'connected' }], offered_tools: ['Bash', 'Write', 'WebFetch'] })
    for (const expectation of [
      '{env.model: {equals: claude-sonnet-5}}',
      '{env.permission_mode: {equals: default}}',
      '{env.exclusive: {plugins: [aep]}}',
      '{env.plugin_loaded: {plugin: aep}}',
      '{env.mcp_servers: {count: {exactly: 0}}}',
      '{env.tool_available: {tool: WebFetch, available: false}}',
      '{env.tool_available: {tool: Read}}',
    ]) {
      expect(rowOf(expectation, evil), expectation).toMatchObject({ verdict: 'gap', outcome: { events: [3] } })
    }
  })

  it('a figure of the run is no one session’s: over several terminal records, cost, turns, tokens and durations are undecided; result checks each', () => {
    // The first session cost $50 in 40 turns; the last, $0.25 in 4: neither record is the run's.
    const costly = metaharness([start(), ended({ total_cost_usd: 50, num_turns: 40 }), start({ session_id: 's-2' }), ended()])
    for (const expectation of ['{cost.total: {at_most_usd: 1}}', '{turns: {count: {at_most: 10}}}', '{tokens.output: {count: {at_most: 1000000}}}', '{duration.total: {ms: {at_most: 600000}}}']) {
      expect(rowOf(expectation, costly), expectation).toMatchObject({ verdict: 'unknown', outcome: { reason: 'sessions_concatenated', events: [1, 3] } })
    }
    expect(rowOf('{result: {is_error: false}}', costly)).toMatchObject({ verdict: 'ok', outcome: { events: [3] } })
  })

  it('holds when every session holds it, citing every opening; a session that cannot say leaves it undecided', () => {
    expect(rowOf('{env.model: {equals: claude-sonnet-5}}', twoSessions({}))).toMatchObject({ verdict: 'ok', outcome: { events: [0, 3], note: 'model = claude-sonnet-5, in each of the 2 sessions' } })
    expect(rowOf('{env.model: {equals: claude-sonnet-5}}', twoSessions({ model: null }))).toMatchObject({ verdict: 'unknown', outcome: { reason: 'field_absent', field: 'model' } })
  })
})

describe('the final assistant text of an answer streamed in pieces', () => {
  const pieces = (...texts: Array<[string, string | null]>) => metaharness([start(), ...texts.map(([words, id]) => text(words, id)), ended()])

  it('joins the pieces of one answer: text events one after another, on one request or none', () => {
    expect(rowOf('{text.matches: {exact: "abc"}}', pieces(['a', null], ['b', null], ['c', null])).outcome).toMatchObject({ outcome: 'ok', events: [1, 2, 3] })
    expect(rowOf('{text.matches: {exact: "ab"}}', pieces(['a', 'r-1'], ['b', 'r-1'])).verdict).toBe('ok')
  })

  it('takes only the last answer where another request, a call or a line of any kind stands between', () => {
    expect(rowOf('{text.matches: {exact: "b"}}', pieces(['a', 'r-1'], ['b', 'r-2'])).verdict).toBe('ok')
    const called = metaharness([start(), text('a', null), call('c-1', 'Bash', { command: 'ls' }), text('b', null), ended()])
    expect(rowOf('{text.matches: {exact: "b"}}', called).outcome).toMatchObject({ outcome: 'ok', events: [3] })
    // A turn boundary reads as no IR event, yet it parts two answers (Gemini CLI's session file writes one text per turn).
    const turned = metaharness([start(), text('All done.', null), { event: 'turn.started', turn: 2 }, text('All done again.', null), ended()])
    expect(rowOf('{text.matches: {exact: "All done again."}}', turned).outcome).toMatchObject({ outcome: 'ok', events: [2] })
  })

  it('joins the text blocks of one stream-json line', () => {
    const line = streamJson([{ type: 'assistant', request_id: 'r-1', message: { content: [{ type: 'text', text: 'Tests ' }, { type: 'text', text: 'pass.' }] } }, { type: 'result', subtype: 'success', is_error: false }])
    expect(rowOf('{text.matches: {exact: "Tests pass."}}', line).verdict).toBe('ok')
  })

  it('judges the last text as the final answer only where the run ended after it', () => {
    // A stream cut short may have answered again: neither the ok nor the gap is proven.
    const cut = metaharness([start(), text('All tests pass.', null)])
    expect(rowOf('{text.matches: {contains: "pass"}}', cut).outcome).toMatchObject({ outcome: 'undecidable', reason: 'stream_not_closed' })
    expect(rowOf('{text.matches: {contains: "fail"}}', cut).outcome).toMatchObject({ outcome: 'undecidable', reason: 'stream_not_closed' })
    // A terminal record after it says the run ended there, closed stream or not.
    expect(rowOf('{text.matches: {contains: "pass"}}', metaharness([start(), text('All tests pass.', null), ended()])).verdict).toBe('ok')
    expect(rowOf('{text.matches: {contains: "pass"}}', metaharness([start(), text('All tests pass.', null), closed(2)])).verdict).toBe('ok')
    // A terminal record before it ended an earlier session; the text opens a later one, which may go on.
    expect(rowOf('{text.matches: {contains: "pass"}}', metaharness([start(), ended(), start(), text('All tests pass.', null)])).outcome).toMatchObject({ reason: 'stream_not_closed' })
    // A session opened after the record that followed the text: the run went on, and may have answered again.
    expect(rowOf('{text.matches: {contains: "pass"}}', metaharness([start(), text('All tests pass.', null), ended(), start()])).outcome).toMatchObject({ reason: 'stream_not_closed' })
  })

  it('is no final answer where the run called a tool after it and wrote no text after that', () => {
    // The run's last words came before its last calls: it ended working (cut short at a call, timed
    // out mid-command), and the plan it wrote is not an answer, whatever the matcher.
    const working = (...calls: Event[]) => metaharness([start(), text('Next I will make all tests pass.', null), ...calls, ended()])
    const test = call('c-1', 'Bash', { command: 'cargo test' }, { operations: ['shell'] })
    const failed = result('c-1', { is_error: true, content: 'test result: FAILED' })
    expect(rowOf('{text.matches: {contains: "tests pass"}}', working(test, failed)).outcome).toMatchObject({ outcome: 'undecidable', reason: 'calls_after_last_text', text_event: 1, call_events: [2] })
    expect(rowOf('{text.matches: {contains: "FAILED"}}', working(test, failed)).outcome).toMatchObject({ outcome: 'undecidable', reason: 'calls_after_last_text' })
    // Every call after it is cited, and the sentence says what happened.
    const two = rowOf('{text.matches: {contains: "tests pass"}}', working(test, failed, call('c-2', 'Read', { file_path: '/w/log' })))
    expect(two.outcome).toMatchObject({ call_events: [2, 4] })
    expect(describeOutcome(two.outcome as Outcome)).toBe('this run called tools after its last text (event 1): 2 calls, at events 2, 4, and wrote no text after them, so it ended working, not answering — that text is not a final answer')
    // A tool that ends the run comes after the text that answers: OpenHands' finish, terminus-2's mark_task_complete.
    expect(rowOf('{text.matches: {contains: "tests pass"}}', working(call('c-1', 'finish', { message: 'done' }))).verdict).toBe('ok')
    expect(rowOf('{text.matches: {contains: "tests pass"}}', working(call('c-1', 'mark_task_complete', {}))).verdict).toBe('ok')
    // A text after the calls is the answer again.
    const answered = metaharness([start(), text('Running the tests.', null), test, failed, text('All tests pass now.', null), ended()])
    expect(rowOf('{text.matches: {contains: "tests pass"}}', answered).outcome).toMatchObject({ outcome: 'ok', events: [4] })
  })
})

describe('a stream-json transcript is read into the same decisions', () => {
  const transcript = streamJson([
    { type: 'system', subtype: 'init', model: 'claude-sonnet-5', permissionMode: 'dontAsk', apiKeySource: 'none', tools: ['Bash', 'Edit'], mcp_servers: [] },
    { type: 'assistant', request_id: 'r-1', timestamp: '2026-08-21T12:00:00.000Z', message: { model: 'claude-sonnet-5', usage: { input_tokens: 3 }, content: [{ type: 'text', text: 'editing' }, { type: 'tool_use', id: 't-1', name: 'Edit', input: { file_path: '/w/src/a.rs' } }] } },
    { type: 'user', timestamp: '2026-08-21T12:00:00.200Z', message: { content: [{ type: 'tool_result', tool_use_id: 't-1', content: 'done' }] }, tool_use_result: { userModified: false } },
    { type: 'result', subtype: 'success', is_error: false, num_turns: 2, permission_denials: [], usage: { input_tokens: 3, output_tokens: 5, iterations: [{}, {}] } },
  ])

  it('cites every block of an assistant line by its own IR index', () => {
    expect(rowOf('{tool.called: {tool: Edit, subject: {glob: "file:*/src/*"}}}', transcript).outcome).toMatchObject({ outcome: 'ok', events: [2] })
    expect(rowOf('{step.exec_time: {tool: Edit, ms: {exactly: 200}}}', transcript).verdict).toBe('ok')
    expect(rowOf('{tool.result: {tool: Edit, result: {userModified: {equals: false}}}}', transcript).outcome).toMatchObject({ outcome: 'ok', events: [3] })
    // Claude Code writes is_error only where it means something: absent is success on this wire.
    expect(rowOf('{tool.failed: {tool: Edit, count: {exactly: 0}}}', transcript).verdict).toBe('ok')
    expect(rowOf('{iterations: {count: {exactly: 2}}}', transcript).verdict).toBe('ok')
    expect(rowOf('{env.permission_mode: {equals: dontAsk}}', transcript).verdict).toBe('ok')
  })

  it('classifies calls by the Claude Code tool table, as their conversion does (upstream leaves this wire without operations)', () => {
    // The Edit is a file.edit now; what never occurred is the Bash call the row orders it before.
    expect(rowOf('{order: {first: {operations: [file.edit]}, before: {tool: Bash}}}', transcript).outcome).toMatchObject({ reason: 'never_occurred', selector: 'Bash' })
    expect(rowOf('{tool.called: {operations: [file.edit], count: {exactly: 1}}}', transcript).verdict).toBe('ok')
  })

  it('is closed by its terminal record as the last event, and open otherwise', () => {
    expect(rowOf('{tool.absent: {tool: Bash}}', transcript).outcome).toMatchObject({ outcome: 'ok', note: "no call matches Bash, and the run closed the stream (the run's terminal record as the transcript's last line, success)" })
    const cut = transcript.split('\n').slice(0, 3).join('\n')
    expect(rowOf('{tool.absent: {tool: Bash}}', cut).outcome).toMatchObject({ reason: 'stream_not_closed', markers: ["the run's terminal record as the transcript's last line"] })
  })
})
