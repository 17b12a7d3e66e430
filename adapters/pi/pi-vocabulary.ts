import type { RecordVocabulary } from '../shared/vocabulary.js'

/**
 * Every entry type of a pi session file (pi-mono `packages/coding-agent/src/core/session-manager.ts`,
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
    'message/toolResult': { becomes: ['tool.result'] },
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
    custom_message: { becomes: ['injection'] },
    label: { carriesNoToolCall: 'a user bookmark on another entry' },
    session_info: { carriesNoToolCall: 'the session display name' },
  },
}
