import type { RecordVocabulary } from '../shared/vocabulary.js'

const SETTING = 'a session setting shown in the UI; the calls it governs are their own records'
const CHUNKS = 'streamed deltas (with their timings) that the step’s assistant/message restates whole'
const WORKFLOW = 'progress of a workflow tool run; the workflow call and its children are their own records'

/**
 * Every record type of a dsh session log (`@deepseek-ai/dsh`; the persisted session events of its
 * `packages/session` and `packages/core`, and the logs its own snapshot tests record), keyed
 * `type`. dsh writes no program version into a log; the header's `version` (0–4) is the log
 * format's, so drift is watched on that.
 */
export const DSH_VOCABULARY: RecordVocabulary = {
  format: 'deepseek-session-jsonl',
  harness: 'dsh session log format',
  writtenAgainst: ['0', '1', '2', '3', '4'],
  records: {
    session: { becomes: ['session.started'] },
    'turn/start': { becomes: ['turn.started'] },
    'turn/end': { becomes: ['turn.ended', 'session.ended'] },
    'step/start': { carriesNoToolCall: 'the start of one model call; its assistant/message carries what it produced' },
    'step/end': { carriesNoToolCall: 'the end of one model call; its assistant/message carries what it produced' },
    'user/message': { becomes: ['injection'] },
    'system/message': { becomes: ['injection'] },
    'steering/message': { becomes: ['injection'] },
    'assistant/message': { becomes: ['text', 'thinking', 'tool.requested', 'usage'] },
    'assistant/chunk': { carriesNoToolCall: CHUNKS },
    'text-chunks': { carriesNoToolCall: CHUNKS },
    'reasoning-chunks': { carriesNoToolCall: CHUNKS },
    'tool-call-chunks': { carriesNoToolCall: CHUNKS },
    'request/header': { carriesNoToolCall: 'the model and the tools offered; folded into session.started' },
    'request/header-delta': { carriesNoToolCall: 'a change to the offered tools or system prompt for the next request' },
    'request/context': { carriesNoToolCall: 'the provider, model and context window of the next request; folded into the model' },
    'tool/call': { becomes: ['tool.requested'] },
    'tool/result': { becomes: ['tool.result'] },
    // A program the model ran with run_code calls tools itself: each sub-call is a call of its own.
    'tool/code-dispatch-start': { becomes: ['tool.requested'] },
    'tool/code-dispatch': { becomes: ['tool.result'] },
    'tool/ptc-dispatch-start': { becomes: ['tool.requested'] },
    'tool/ptc-dispatch': { becomes: ['tool.result'] },
    'agent/inbox/spliced': { carriesNoToolCall: 'queued user input moved into a turn; the user/message that delivers it is the injection' },
    'session/title': { carriesNoToolCall: 'the session display title' },
    'session/title-llm-request': { carriesNoToolCall: 'the side request that names the session; it runs no tool' },
    'session/end-seed': { carriesNoToolCall: 'marks where the history a child session inherited ends' },
    'subagent/descriptor': { carriesNoToolCall: 'how a child session was started; the parent’s subagent call is its own record' },
    'subagent/start': { carriesNoToolCall: 'a child session began; the parent’s subagent call is its own record' },
    'subagent/end': { carriesNoToolCall: 'a child session settled; the parent’s subagent call result is its own record' },
    'approval/policy': { carriesNoToolCall: SETTING },
    'approval/asked': { carriesNoToolCall: 'the user was asked about a call that is its own record' },
    'approval/request': { carriesNoToolCall: 'the user was asked about a call that is its own record' },
    'approval/decided': { becomes: ['warning'] },
    'permission/preset': { carriesNoToolCall: SETTING },
    'sandbox/mode': { carriesNoToolCall: SETTING },
    'plan/mode': { carriesNoToolCall: SETTING },
    'mode/set': { carriesNoToolCall: SETTING },
    'agent-preset/selected': { carriesNoToolCall: SETTING },
    'command/run': { carriesNoToolCall: 'a slash command the user ran in the dsh UI, not a model tool call' },
    'command/done': { carriesNoToolCall: 'the outcome of a user slash command' },
    'goal/change': { carriesNoToolCall: 'the session goal’s new state' },
    'schedule/change': { carriesNoToolCall: 'a scheduled prompt’s new state' },
    'todo/write': { carriesNoToolCall: 'the todo list’s new state; the tool call that wrote it is its own record' },
    'compaction/start': { carriesNoToolCall: 'a context compaction began' },
    'compaction/end': { carriesNoToolCall: 'a context compaction ended' },
    'compaction/prune': { carriesNoToolCall: 'old tool output dropped from the context' },
    'compaction/summary': { becomes: ['injection'] },
    'llm/retry': { carriesNoToolCall: 'the provider retry policy for a failed request' },
    'llm/retry-started': { carriesNoToolCall: 'a failed request is being retried' },
    'hook/invoked': { carriesNoToolCall: 'a user hook ran; its hook/result says what it decided' },
    'hook/result': { becomes: ['warning'] },
    'feedback/record': { carriesNoToolCall: 'user feedback on a message' },
    'tool-workflow/run-start': { carriesNoToolCall: WORKFLOW },
    'tool-workflow/run-end': { carriesNoToolCall: WORKFLOW },
    'tool-workflow/agent-start': { carriesNoToolCall: WORKFLOW },
    'tool-workflow/agent-end': { carriesNoToolCall: WORKFLOW },
  },
}
