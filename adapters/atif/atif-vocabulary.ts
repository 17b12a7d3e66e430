import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'

/**
 * What every part of an ATIF trajectory becomes (Harbor RFC 0001, v1.0–v1.7: root fields, steps
 * by `source`, tool calls, observation results, metrics). ATIF is one document, so its "records"
 * are the document's parts; a step is keyed `step/<source>`. Only a step whose `source` is none of
 * the RFC's three (or that is not an object) is opaque.
 *
 * Drift is watched on `schema_version`, not on `agent.version`: the reader is written against the
 * schema, and the agents inside it (terminus-2 2.0.0, openhands 0.59–1.1, Claude Code 2.x…) are
 * classified by their tool tables, whose own readers watch their harness versions.
 */
const STEP_PARTS: Readonly<Record<string, RecordMeaning>> = {
  'step/system': { becomes: ['injection'] },
  'step/user': { becomes: ['injection'] },
  'step/agent': { becomes: ['thinking', 'text', 'tool.requested', 'tool.result', 'injection', 'usage'] },
  'step/copied-context': {
    carriesNoToolCall:
      'a step with is_copied_context copies one recorded in the previous trajectory segment (RFC: "not a new interaction"); its calls were read there, so reading them again would count them twice',
  },
  'step/message-actions': { becomes: ['tool.requested'] },
  tool_call: { becomes: ['tool.requested'] },
  'observation/result': { becomes: ['tool.result'] },
  'observation/result-without-call': { becomes: ['injection'] },
  'observation/subagent_trajectory_ref': {
    carriesNoToolCall: "a pointer to another trajectory (a file, or an entry of subagent_trajectories); the subagent's calls are in that trajectory, not in the pointer",
  },
  'step/metrics': { becomes: ['usage'] },
  'step/extra': { carriesNoToolCall: "the producer's own step metadata (context_management, Claude's is_sidechain…): no action" },
  agent: { becomes: ['session.started'] },
  'agent/tool_definitions': { becomes: ['session.started'] },
  final_metrics: { becomes: ['session.ended'] },
  subagent_trajectories: { becomes: ['thinking', 'text', 'tool.requested', 'tool.result', 'injection', 'usage'] },
  notes: { carriesNoToolCall: "the developer's free-text note on the format" },
  extra: { carriesNoToolCall: 'root-level custom metadata' },
  continued_trajectory_ref: { carriesNoToolCall: 'names the file the run continues in; that file holds the later calls' },
  trajectory_id: { carriesNoToolCall: "the document's identifier" },
}

/** `atif-json`: a plain ATIF trajectory (`trajectory.json`). */
export const ATIF_VOCABULARY: RecordVocabulary = {
  format: 'atif-json',
  harness: 'ATIF schema',
  writtenAgainst: ['ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6', 'ATIF-v1.7'],
  records: STEP_PARTS,
}

/** `terminus-atif-json`: Reef's trial record, the same steps under the verifier's outcome (it names no version). */
export const TERMINUS_RECORD_VOCABULARY: RecordVocabulary = {
  format: 'terminus-atif-json',
  harness: 'reef-terminus trial record',
  writtenAgainst: [],
  records: {
    ...STEP_PARTS,
    rewards: { becomes: ['session.ended'] },
    failed: { becomes: ['session.ended'] },
    error: { becomes: ['session.ended'] },
    task: { carriesNoToolCall: "the task's name" },
  },
}
