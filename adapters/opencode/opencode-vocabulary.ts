import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'

/**
 * The part types of an opencode message (`packages/opencode/src/session/message-v2.ts`), the same
 * in storage files, the session database, `export` documents and `run --format json` stdout,
 * keyed `part/<type>`.
 */
export const OPENCODE_PART_RECORDS: Readonly<Record<string, RecordMeaning>> = {
  'part/text': { becomes: ['text', 'injection'] },
  'part/reasoning': { becomes: ['thinking'] },
  'part/tool': { becomes: ['tool.requested', 'tool.result'] },
  'part/step-start': { carriesNoToolCall: 'the start of one model request; its parts follow' },
  'part/step-finish': { becomes: ['usage'] },
  'part/file': { carriesNoToolCall: 'a file attached to a user message; it is input, not a call' },
  'part/snapshot': { carriesNoToolCall: 'the workspace snapshot id taken for undo' },
  'part/patch': { carriesNoToolCall: 'the files a step changed, by snapshot diff; the calls that changed them are tool parts' },
  'part/agent': { carriesNoToolCall: 'an @agent mention in a user message' },
  'part/subtask': { carriesNoToolCall: 'a command that starts a subagent; the task call is a tool part of its own' },
  'part/retry': { carriesNoToolCall: 'a failed request being retried' },
  'part/compaction': { carriesNoToolCall: 'marks where the context was compacted; the summary is a message of its own' },
}

/** opencode's own versions (`Session.Info.version`) the readers were written against. */
const WRITTEN_AGAINST = ['0.*', '1.*']

/** `opencode run --format json` stdout: one record per part as it settles, and errors. */
export const OPENCODE_RUN_VOCABULARY: RecordVocabulary = {
  format: 'opencode-run-json',
  harness: 'opencode',
  writtenAgainst: WRITTEN_AGAINST,
  records: {
    step_start: { carriesNoToolCall: 'the start of one model request (its step-start part)' },
    step_finish: { becomes: ['usage'] },
    text: { becomes: ['text'] },
    reasoning: { becomes: ['thinking'] },
    tool_use: { becomes: ['tool.requested', 'tool.result'] },
    error: { becomes: ['warning'] },
    ...OPENCODE_PART_RECORDS,
  },
}

/** The storage tree: session, message and part objects, one per file. */
export const OPENCODE_STORAGE_VOCABULARY: RecordVocabulary = {
  format: 'opencode-storage-json',
  harness: 'opencode',
  writtenAgainst: WRITTEN_AGAINST,
  records: {
    session: { becomes: ['session.started'] },
    message: { becomes: ['warning'] },
    ...OPENCODE_PART_RECORDS,
  },
}

/** `opencode export <session>`: `{info, messages: [{info, parts}]}`. */
export const OPENCODE_EXPORT_VOCABULARY: RecordVocabulary = {
  format: 'opencode-export-json',
  harness: 'opencode',
  writtenAgainst: WRITTEN_AGAINST,
  records: {
    info: { becomes: ['session.started'] },
    message: { becomes: ['warning'] },
    ...OPENCODE_PART_RECORDS,
  },
}
