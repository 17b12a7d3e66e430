import { isObject } from '../shared/fields.js'
import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'

/**
 * The Claude Code versions these readers were written against: the 1.0 and 2.x lines whose
 * records the corpus and the Agent SDK's `SDKMessage` declarations show. Any other version still
 * reads; it only yields the drift warning, naming the record types it did not know.
 */
export const CLAUDE_WRITTEN_AGAINST = ['1.0.*', '2.0.*', '2.1.*'] as const

const NO_CALL = (reason: string): RecordMeaning => ({ carriesNoToolCall: reason })

/**
 * Whether a record starts a Workflow's background run (2.1: `system/task_started` with `task_type:
 * local_workflow`): its agents' calls go to the workflow's own transcript directory, never to the
 * stream. Both Claude Code readers, converting and as it is, ask it of the same record.
 */
export function startsWorkflow(record: unknown): boolean {
  return isObject(record) && record['type'] === 'system' && record['subtype'] === 'task_started' && record['task_type'] === 'local_workflow'
}

/**
 * Records both Claude Code wires share (stream-json is the SDK's `SDKMessage` union; the session
 * file writes the same `user`/`assistant`/`system` records with their own envelope). A content
 * block is keyed `<record>/<block type>`: an opaque block names its record and its block type.
 */
export const CLAUDE_SHARED_RECORDS: Readonly<Record<string, RecordMeaning>> = {
  assistant: { becomes: ['text', 'thinking', 'tool.requested', 'usage', 'warning'] },
  'assistant/redacted_thinking': NO_CALL('encrypted reasoning: no text to read and no call in it'),
  'assistant/server_tool_use': { becomes: ['tool.requested'] },
  'assistant/web_search_tool_result': { becomes: ['tool.result'] },
  'assistant/web_fetch_tool_result': { becomes: ['tool.result'] },
  'assistant/advisor_tool_result': { becomes: ['tool.result'] },
  user: { becomes: ['injection', 'tool.result'] },
  'user/image': NO_CALL('an image the user or a tool handed the model: pixels, not a call'),
  'user/document': NO_CALL('a document handed to the model as input: content, not a call'),
  'system/init': { becomes: ['session.started'] },
  'system/thinking_tokens': { becomes: ['thinking.estimate'] },
  'system/compact_boundary': NO_CALL('marks where the conversation was compacted; the summary arrives as a user record'),
  'system/microcompact_boundary': NO_CALL('marks where old tool results were cleared from context'),
  'system/permission_denied': NO_CALL('a call the harness refused; its tool_result says so, and the result record’s permission_denials lists it'),
  'system/api_error': NO_CALL('a failed API request the harness retries; the retried request is a later assistant record'),
  'system/api_retry': NO_CALL('the SDK notice of a retried API request; no call in it'),
  'system/api_refusal': NO_CALL('the API refused the request; the refusal text is not a call'),
  'system/model_refusal_fallback': NO_CALL('the run moved to a fallback model; no call in it'),
  'system/error': NO_CALL('a harness error notice; a failed call carries its own tool_result'),
  'system/informational': NO_CALL('a notice the harness shows the user'),
  'system/local_command': NO_CALL('a slash command run by the harness itself, not a tool call by the model'),
  'system/turn_duration': NO_CALL('the wall time of a turn'),
  'system/stop_hook_summary': NO_CALL('which Stop hooks ran; hooks are not tool calls'),
  'system/hook_started': NO_CALL('a hook began; hooks are not tool calls'),
  'system/hook_progress': NO_CALL('a hook’s output so far'),
  'system/hook_response': NO_CALL('a hook’s result; hooks are not tool calls'),
  'system/status': NO_CALL('the harness status line (compacting…)'),
  'system/session_start': NO_CALL('the session-file opening notice; the session starts at the first record naming it'),
  'system/task_started': NO_CALL('a background task began; its calls are the subagent’s own records'),
  'system/task_progress': NO_CALL('a background task’s progress; its calls are the subagent’s own records'),
  'system/task_notification': NO_CALL('a background task ended; its calls are the subagent’s own records'),
  'system/task_updated': NO_CALL('a patch to a task’s state (status, end time); its calls are the subagent’s own records'),
  'system/background_tasks_changed': NO_CALL('the list of tasks now running in the background; each call is its own tool_use'),
  'system/files_persisted': NO_CALL('files the harness saved after the run'),
  'system/elicitation_complete': NO_CALL('an MCP elicitation the user answered'),
  'system/bridge_status': NO_CALL('remote-control bridge status'),
  'system/session_state_changed': NO_CALL('the SDK host’s run state (running, idle); written after the result when the run ends'),
  result: { becomes: ['session.ended', 'stream.closed'] },
  stream_event: NO_CALL('a partial-message delta; the assistant record that follows carries the whole block'),
  rate_limit_event: { becomes: ['rate_limit'] },
  control_request: NO_CALL('the SDK control protocol (permission prompts, interrupts): the call it asks about is its own tool_use'),
  control_response: NO_CALL('the SDK control protocol’s answer; no call in it'),
  control_cancel_request: NO_CALL('the SDK control protocol cancelling a request'),
  keep_alive: NO_CALL('a transport keep-alive'),
  tool_progress: NO_CALL('a running tool’s elapsed time; the call is its tool_use'),
  tool_use_summary: NO_CALL('a summary of calls already recorded as tool_use blocks'),
  auth_status: { becomes: ['auth.expired'] },
  prompt_suggestion: NO_CALL('a suggested next prompt the user may pick'),
}

/** `claude -p --output-format stream-json --verbose`: the SDK's `SDKMessage` records. */
export const CLAUDE_STREAM_JSON_VOCABULARY: RecordVocabulary = {
  format: 'claude-code/stream-json',
  harness: 'claude-code',
  writtenAgainst: CLAUDE_WRITTEN_AGAINST,
  records: CLAUDE_SHARED_RECORDS,
}
