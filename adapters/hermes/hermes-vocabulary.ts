import type { RecordVocabulary } from '../shared/vocabulary.js'

/**
 * The records of a hermes-agent session snapshot (`run_agent.py` `_save_session_log`: one object
 * of session facts and an OpenAI-chat `messages` list), keyed `session` and `message/<role>`. The
 * snapshot writes no program version, so no drift warning can name one.
 */
export const HERMES_VOCABULARY: RecordVocabulary = {
  format: 'hermes-session-json',
  harness: 'hermes-agent',
  writtenAgainst: ['0.21.*'],
  records: {
    session: { becomes: ['session.started'] },
    'message/system': { becomes: ['injection'] },
    'message/user': { becomes: ['injection'] },
    // Each assistant message is one chat-completion request: it is counted as one, usage or none.
    // An `execute_code` script that calls hermes's tools gets a `nested_calls_unseen` warning.
    'message/assistant': { becomes: ['thinking', 'text', 'tool.requested', 'warning', 'usage'] },
    'message/tool': { becomes: ['tool.result'] },
  },
}
