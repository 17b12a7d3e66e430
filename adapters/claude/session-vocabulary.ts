import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'
import { CLAUDE_SHARED_RECORDS, CLAUDE_WRITTEN_AGAINST } from './stream-json-vocabulary.js'

const NO_CALL = (reason: string): RecordMeaning => ({ carriesNoToolCall: reason })

/** `~/.claude/projects/<cwd-slug>/<session-id>.jsonl`: the shared records, plus the file's own bookkeeping. */
export const CLAUDE_SESSION_VOCABULARY: RecordVocabulary = {
  format: 'claude-session-jsonl',
  harness: 'claude-code',
  writtenAgainst: CLAUDE_WRITTEN_AGAINST,
  records: {
    ...CLAUDE_SHARED_RECORDS,
    summary: NO_CALL('the title of a compacted or resumed conversation (`summary`, `leafUuid`)'),
    'file-history-snapshot': NO_CALL('the harness’s backup of files before an edit; the edit is its own tool_use'),
    attachment: NO_CALL('context the harness attached to a turn (hook output, todo reminders, file mentions); no call by the model'),
    'queue-operation': NO_CALL('a prompt queued or dequeued while the model was busy; the prompt itself arrives as a user record'),
    'last-prompt': NO_CALL('the last prompt typed, kept for resume'),
    // 2.1.328 keeps what each model request was made of beside the conversation.
    'api-request': NO_CALL('a model request’s parameters and the digests of the messages it sent; the messages are the conversation’s records'),
    'api-request-shape': NO_CALL('the system prompt and tool definitions a model request was built from'),
    'api-request-blob': NO_CALL('a message a model request sent, kept once by its digest: the harness’s context and the tool results the conversation records hold; one the model wrote is read as unknown'),
    'tools-used': NO_CALL('the names of the tools the session has used; its calls are the assistant records'),
    'cost-state': NO_CALL('the session’s running cost and durations, kept for resume'),
    // 2.1.337: where each model request went.
    'api-request-route': NO_CALL('the provider and kind of credential a model request was routed to'),
    progress: NO_CALL('a running tool’s or subagent’s progress; a subagent’s calls are in its own transcript'),
    'permission-mode': NO_CALL('the permission mode in force'),
    mode: NO_CALL('the input mode in force'),
    'custom-title': NO_CALL('a title the user gave the session'),
    'ai-title': NO_CALL('a title the harness generated for the session'),
    'agent-name': NO_CALL('the subagent’s display name'),
    tag: NO_CALL('a tag the user put on the session'),
    'pr-link': NO_CALL('a pull request the session is linked to'),
    'worktree-state': NO_CALL('the git worktree the session runs in'),
    'agent-setting': NO_CALL('the agent definition the session runs as'),
    'bridge-session': NO_CALL('the remote-control bridge the session is reachable through'),
    'atis-latch': NO_CALL('an internal state latch of the harness'),
    'file-history-delta': NO_CALL('one file’s backup before an edit; the edit is its own tool_use'),
    'fork-context-ref': NO_CALL('the parent session a forked context came from'),
    'frame-link': NO_CALL('an artifact frame the session is linked to'),
    relocated: NO_CALL('the session moved back to its working directory'),
    saved_hook_context: NO_CALL('context a hook contributed, kept for resume; hooks are not tool calls'),
    started: NO_CALL('a workflow step’s journal start; the step’s calls are its agent’s own records'),
    // In a session file `result` is the workflow journal's cached step result, not the SDK's terminal record.
    result: NO_CALL('a workflow step’s cached result; the step’s calls are its agent’s own records'),
    'system/away_summary': NO_CALL('a recap shown when the user returns'),
    'system/scheduled_task_fire': NO_CALL('a scheduled prompt fired; the prompt arrives as a user record'),
    'system/agents_killed': NO_CALL('background agents were stopped'),
    'system/model_consent_fallback': NO_CALL('the run moved to another model with the user’s consent'),
  },
}
