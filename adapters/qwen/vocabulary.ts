import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'

/** The Qwen Code versions these readers were written against (records seen in 0.24.4 runs and its `chatRecordingService`). */
export const QWEN_WRITTEN_AGAINST = ['0.24.*'] as const

const NO_CALL = (reason: string): RecordMeaning => ({ carriesNoToolCall: reason })

/**
 * The session file, `~/.qwen/projects/<cwd>/chats/<sessionId>.jsonl`: one `ChatRecord` per line,
 * keyed `type` or `type/subtype`. Messages are the model's own content (`parts` with `text`,
 * `thought`, `functionCall`, `functionResponse`); every record is appended once and never
 * rewritten. A `system` record is the CLI's own bookkeeping, listed here only where its payload
 * is known to hold no call. A subagent writes the same records (`isSidechain`, its `agentId`) to a
 * file of its own, `~/.qwen/projects/<cwd>/subagents/<sessionId>/agent-<type>-<callId>.jsonl`.
 */
export const QWEN_SESSION_VOCABULARY: RecordVocabulary = {
  format: 'qwen-code/session-jsonl',
  harness: 'qwen-code',
  writtenAgainst: QWEN_WRITTEN_AGAINST,
  records: {
    user: { becomes: ['session.started', 'turn.started'] },
    // Text the user typed while results were going back, sent with them.
    'user/mid_turn_user_message': { becomes: ['injection'] },
    'user/notification': { becomes: ['injection'] },
    'user/cron': { becomes: ['injection'] },
    'user/goal_runtime': { becomes: ['injection'] },
    assistant: { becomes: ['thinking', 'text', 'usage', 'tool.requested'] },
    tool_result: { becomes: ['tool.result'] },
    // A metrics event (an API response, a tool call's duration) kept for the UI; a call is its
    // assistant and tool_result records, except one that `exec`'s code made, which is here alone.
    'system/ui_telemetry': { becomes: ['tool.requested', 'tool.result'] },
    'system/attribution_snapshot': NO_CALL('the CLI’s count of prompts and files it attributes to the model, for commit trailers'),
    'system/chat_compression': { becomes: ['warning'] },
    'system/slash_command': NO_CALL('a slash command the user typed and what the UI showed for it'),
    'system/at_command': NO_CALL('files the CLI read for an @-mention the user typed; the model called nothing'),
    'system/custom_title': NO_CALL('a title for the session'),
    'system/session_model': NO_CALL('the model the session is bound to'),
    'system/session_approval_mode': NO_CALL('the approval mode in force'),
    'system/session_source': NO_CALL('the integration that created the session'),
    'system/parent_session': NO_CALL('the session that spawned this one'),
    'system/file_history_snapshot': NO_CALL('the CLI’s backup of files before an edit; the edit is its own call'),
    'system/goal_state': NO_CALL('the Goal’s state'),
    'system/goal_turn_end': NO_CALL('the end of a Goal turn'),
    'system/branch_checkpoint': NO_CALL('a point the conversation can be branched from'),
    'system/rewind': { becomes: ['warning'] },
    'system/agent_session_ready': NO_CALL('a subagent’s session is ready to run (`callId`, `subagentSessionReady`); its calls are the records that follow'),
    'system/agent_retry': NO_CALL('a subagent resumed for another attempt (`attempt`)'),
    'system/agent_bootstrap': NO_CALL('a forked subagent’s inherited history: the calls in it are the parent’s, recorded in the parent’s file'),
  },
}

/**
 * `qwen -p … --output-format stream-json` stdout: Claude Code's stream-json shape (its `system/init`
 * names `qwen_code_version`), read by the Claude stream-json projector with Qwen Code's tools.
 * `--output-format json` prints the same records as one array.
 */
export const QWEN_STREAM_JSON_VOCABULARY: RecordVocabulary = {
  format: 'qwen-code/stream-json',
  harness: 'qwen-code',
  writtenAgainst: QWEN_WRITTEN_AGAINST,
  records: {
    'system/init': { becomes: ['session.started'] },
    assistant: { becomes: ['text', 'thinking', 'tool.requested', 'usage'] },
    user: { becomes: ['injection', 'tool.result'] },
    result: { becomes: ['session.ended', 'stream.closed'] },
    stream_event: NO_CALL('a partial-message delta (the assistant record that follows carries the whole block) or the Goal’s state'),
    // A background subagent's calls never reach this stream: the stream then proves no longer that it holds the whole run.
    'system/task_started': { becomes: ['warning'] },
    'system/task_notification': NO_CALL('a background task ended; a subagent’s calls are in its own session file'),
  },
}
