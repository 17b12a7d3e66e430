import type { RecordVocabulary } from '../shared/vocabulary.js'

/**
 * Every entry type of a pi session file, and every event of `pi --mode json` stdout (pi-mono `packages/coding-agent/src/core/session-manager.ts`,
 * `docs/session.md`; real sessions from pi-mono's own fixtures), keyed `type` or `message/<role>`.
 * pi writes no program version into a session; the header's `version` is the session format's
 * (1: linear, no ids; 2: a tree through `id`/`parentId`; 3: `hookMessage` renamed `custom`), so
 * drift is watched on that format version.
 */
export const PI_VOCABULARY: RecordVocabulary = {
  format: 'pi-session-jsonl',
  harness: 'pi session format',
  writtenAgainst: ['1', '2', '3'],
  records: {
    session: { becomes: ['session.started'] },
    'message/user': { becomes: ['injection'] },
    'message/assistant': { becomes: ['text', 'thinking', 'tool.requested', 'usage', 'warning'] },
    // pi 1.x: a tool's result records the calls its code made (`nestedCalls`), complete or not.
    'message/toolResult': { becomes: ['tool.requested', 'tool.result', 'warning'] },
    // pi 1.x: the prompt and tool loadout, the first one whole, later ones patching it.
    'message/system': { becomes: ['injection'] },
    // `!command` in pi's editor: the user ran it, not the model, and its output joins the context.
    'message/bashExecution': { becomes: ['injection'] },
    'message/custom': { becomes: ['injection'] },
    'message/hookMessage': { becomes: ['injection'] },
    'message/branchSummary': { becomes: ['injection'] },
    'message/compactionSummary': { becomes: ['injection'] },
    model_change: { carriesNoToolCall: 'names the model the next requests use; folded into session.started and usage' },
    thinking_level_change: { carriesNoToolCall: 'a reasoning-effort setting for the next requests' },
    compaction: { becomes: ['injection'] },
    branch_summary: { becomes: ['injection'] },
    custom: { carriesNoToolCall: "an extension's own state, never sent to the model" },
    usage: { carriesNoToolCall: 'pi 1.x: model work outside the conversation (cache warming…), added to the run’s tokens and cost' },
    custom_message: { becomes: ['injection'] },
    label: { carriesNoToolCall: 'a user bookmark on another entry' },
    session_info: { carriesNoToolCall: 'the session display name' },
    context_edit: { carriesNoToolCall: 'pi 1.x: what an earlier entry gives the model from now on; the entry, and any call it holds, is unchanged' },
    // `pi --mode json` stdout (docs/json.md): the session's events after the same header.
    message_end: { becomes: ['injection', 'text', 'thinking', 'tool.requested', 'usage', 'warning', 'tool.result'] },
    entry_appended: { becomes: ['injection'] },
    agent_start: { carriesNoToolCall: 'the agent began working on the prompt' },
    agent_end: { carriesNoToolCall: 'repeats every message of the run, each already read from its message_end; ends the run unless willRetry' },
    agent_settled: { carriesNoToolCall: 'the agent is idle: the run ended' },
    turn_start: { carriesNoToolCall: 'a model turn began' },
    turn_end: { carriesNoToolCall: 'repeats the turn’s assistant message and tool results, each already read from its message_end' },
    message_start: { carriesNoToolCall: 'a message began; its message_end holds it whole' },
    message_update: { carriesNoToolCall: 'a streamed delta of a message whose message_end holds it whole' },
    tool_execution_start: { carriesNoToolCall: 'a call began to run: one the assistant message_end holds, or (with `parentToolCallId`) one a tool made, which its result’s `nestedCalls` holds' },
    tool_execution_update: { carriesNoToolCall: 'partial output of a running call' },
    tool_execution_end: { carriesNoToolCall: 'a call ended; its toolResult message_end holds the result' },
    queue_update: { carriesNoToolCall: 'the pending steering and follow-up prompts' },
    compaction_start: { carriesNoToolCall: 'compaction began' },
    compaction_end: { carriesNoToolCall: 'compaction ended; its summary is appended as an entry, and (1.x) the model work that wrote it joins the run’s tokens and cost' },
    summarization_retry_scheduled: { carriesNoToolCall: 'pi 1.x: a failed compaction or branch summary will be retried' },
    summarization_retry_attempt_start: { carriesNoToolCall: 'pi 1.x: a compaction or branch summary is retried' },
    summarization_retry_finished: { carriesNoToolCall: 'pi 1.x: the summary retries are over' },
    auto_retry_start: { carriesNoToolCall: 'a failed request will be retried' },
    auto_retry_end: { carriesNoToolCall: 'a retried request settled' },
    thinking_level_changed: { carriesNoToolCall: 'a reasoning-effort setting for the next requests' },
    session_info_changed: { carriesNoToolCall: 'the session display name' },
    bash_execution_update: { carriesNoToolCall: 'output of the user’s own `!command`, whose message_end holds it' },
  },
}
