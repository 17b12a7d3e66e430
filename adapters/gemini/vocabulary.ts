import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'

/** The Gemini CLI versions these readers were written against (records seen in 0.61.0 runs and its bundled `chatRecordingService`). */
export const GEMINI_WRITTEN_AGAINST = ['0.61.*'] as const

const NO_CALL = (reason: string): RecordMeaning => ({ carriesNoToolCall: reason })

/** `gemini -p … --output-format stream-json`: one `JsonStreamEvent` per line, keyed `type`. */
export const GEMINI_STREAM_JSON_VOCABULARY: RecordVocabulary = {
  format: 'gemini-cli/stream-json',
  harness: 'gemini-cli',
  writtenAgainst: GEMINI_WRITTEN_AGAINST,
  records: {
    init: { becomes: ['session.started'] },
    'message/user': { becomes: ['turn.started'] },
    'message/assistant': { becomes: ['text'] },
    tool_use: { becomes: ['tool.requested'] },
    tool_result: { becomes: ['tool.result'] },
    error: { becomes: ['warning'] },
    result: { becomes: ['usage', 'turn.ended', 'session.ended'] },
  },
}

/**
 * The session file, `$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`: an
 * append log. Its first line is the metadata (`sessionId`, `projectHash`…); then message records
 * (keyed by their `type`), `$set` metadata updates and `$rewindTo` markers. A message record is
 * written again, whole, when it changes (a `gemini` record gains its `toolCalls`): the reader
 * emits each message once and each call once.
 */
export const GEMINI_SESSION_VOCABULARY: RecordVocabulary = {
  format: 'gemini-cli/session-jsonl',
  harness: 'gemini-cli',
  writtenAgainst: GEMINI_WRITTEN_AGAINST,
  records: {
    metadata: { becomes: ['session.started'] },
    $set: { becomes: ['injection', 'turn.started'] },
    $rewindTo: { becomes: ['warning'] },
    user: { becomes: ['injection', 'turn.started'] },
    gemini: { becomes: ['thinking', 'text', 'usage', 'tool.requested', 'tool.result'] },
    info: NO_CALL('a notice the CLI showed the user'),
    warning: { becomes: ['warning'] },
    error: { becomes: ['warning'] },
  },
}

/**
 * The session file of the releases before the JSONL log, `chats/session-<time>-<id>.json`: one
 * `ConversationRecord` document, rewritten whole at every change, whose `messages` hold each
 * message once, keyed by its `type`. Written against 0.20's `chatRecordingService` and real files
 * that 0.22 wrote; the file names no version.
 */
export const GEMINI_SESSION_JSON_VOCABULARY: RecordVocabulary = {
  format: 'gemini-cli/session-json',
  harness: 'gemini-cli',
  writtenAgainst: ['0.20.*', '0.22.*'],
  records: {
    user: { becomes: ['injection', 'turn.started'] },
    gemini: { becomes: ['thinking', 'text', 'usage', 'tool.requested', 'tool.result'] },
    info: NO_CALL('a notice the CLI showed the user'),
    warning: { becomes: ['warning'] },
    error: { becomes: ['warning'] },
  },
}

/** `gemini -p … --output-format json`: one document; its parts, by key. */
export const GEMINI_JSON_OUTPUT_VOCABULARY: RecordVocabulary = {
  format: 'gemini-cli/json',
  harness: 'gemini-cli',
  writtenAgainst: GEMINI_WRITTEN_AGAINST,
  records: {
    session_id: { becomes: ['session.started'] },
    response: { becomes: ['text', 'session.ended'] },
    'stats/models': { becomes: ['usage'] },
    'stats/tools': { becomes: ['warning', 'tool.requested'] },
    'stats/files': NO_CALL('lines added and removed by edits; the edits are the counted calls'),
    error: { becomes: ['warning'] },
  },
}
