import type { RecordVocabulary } from '../shared/vocabulary.js'

/**
 * Every loop record kind `b10x-harness --json` writes (`crates/harness-loop/src/event.rs`, keyed
 * `kind`) that the enriched reader reads, and what it makes of each. Upstream's projection (what
 * the replays reproduce) leaves `reasoning-delta`, `turn-retried` and the records that carry no
 * call opaque; enriched, a record listed here never is. Not listed, so opaque: `delegated` (a
 * subagent's own event, which may be a call), a pre-loop `refused`, the flow kinds.
 */
export const B10X_LOOP_VOCABULARY: RecordVocabulary = {
  format: 'b10x/loop-jsonl',
  harness: 'b10x-harness',
  // The record names no version: drift is judged from the version the launch or the caller states.
  writtenAgainst: ['0.9.*', '0.12.*'],
  records: {
    started: { becomes: ['session.started'] },
    'turn-started': { becomes: ['turn.started'] },
    'text-delta': { becomes: ['text'] },
    'reasoning-delta': { becomes: ['thinking'] },
    'turn-retried': { becomes: ['warning'] },
    'tool-arguments-delta': { carriesNoToolCall: 'a call’s arguments as they stream; its tool-requested carries them whole' },
    'tool-requested': { becomes: ['tool.requested', 'warning'] },
    'approval-required': { carriesNoToolCall: 'the approver is asked about a call its tool-requested already names' },
    'approval-resolved': { becomes: ['warning'] },
    'tool-completed': { becomes: ['tool.result'] },
    usage: { becomes: ['usage'] },
    cost: { carriesNoToolCall: 'a turn’s price, added up into session.ended’s total_cost_usd' },
    warning: { becomes: ['warning'] },
    'hook-ran': { becomes: ['warning'] },
    finished: { becomes: ['session.ended'] },
    rates: { carriesNoToolCall: 'the rate card the run is priced with, written once before turn 1' },
    session: { carriesNoToolCall: 'after finished: where the session was filed' },
    'credential-renewed': { carriesNoToolCall: 'before started: a credential was renewed' },
    compacted: { carriesNoToolCall: 'between turns: the conversation was compacted (its conversation-compacted warning is read)' },
    answered: { carriesNoToolCall: 'a structured answer’s value; the calls are the tool-requested lines' },
    'delegate-started': { carriesNoToolCall: 'a subagent began: counted in session.ended’s subagents_spawned; its own events are delegated lines' },
    'delegate-finished': { carriesNoToolCall: 'a subagent ended; its calls were its delegated lines' },
  },
}
