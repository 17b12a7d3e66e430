import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'

/** The item types of `codex exec --json` that are a call (codex-rs/exec `ThreadItemDetails`). */
export const EXEC_CALL_ITEMS = ['command_execution', 'file_change', 'mcp_tool_call', 'collab_tool_call', 'web_search', 'todo_list'] as const

const IN_PROGRESS = 'the item while it is under way; its item.completed carries what it said'

function itemRecords(type: string, started: RecordMeaning, completed: RecordMeaning): Record<string, RecordMeaning> {
  return { [`item.started/${type}`]: started, [`item.updated/${type}`]: started, [`item.completed/${type}`]: completed }
}

/**
 * Every record `codex exec --json` writes (`ThreadEvent` of codex-rs/exec/src/exec_events.rs, keyed
 * `type`, and for `item.*` the item's `type`), and what the reader makes of each. The stream names
 * no CLI version, so drift can only be judged from a version the caller states.
 */
export const CODEX_EXEC_JSON_VOCABULARY: RecordVocabulary = {
  format: 'codex/exec-json',
  harness: 'codex-cli',
  writtenAgainst: ['0.144.*', '0.169.*'],
  records: {
    'thread.started': { becomes: ['session.started'] },
    'turn.started': { becomes: ['turn.started'] },
    'turn.completed': { becomes: ['usage', 'turn.ended', 'session.ended'] },
    'turn.failed': { becomes: ['warning', 'turn.ended', 'session.ended'] },
    error: { becomes: ['warning'] },
    ...itemRecords('agent_message', { carriesNoToolCall: IN_PROGRESS }, { becomes: ['text'] }),
    ...itemRecords('reasoning', { carriesNoToolCall: IN_PROGRESS }, { becomes: ['thinking'] }),
    'item.completed/error': { becomes: ['warning'] },
    ...Object.assign({}, ...EXEC_CALL_ITEMS.map((type) => itemRecords(type, { becomes: ['tool.requested'] }, { becomes: ['tool.requested', 'tool.result'] }))),
  },
}
