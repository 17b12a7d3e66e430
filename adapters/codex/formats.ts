import type { LineFormat } from '../formats.js'
import { asString } from '../shared/fields.js'
import { CODEX_ADAPTER_ID } from './declaration.js'
import { CodexExecProjector } from './exec-json.js'
import { CODEX_EXEC_JSON_VOCABULARY } from './exec-json-vocabulary.js'
import { CodexRolloutProjector } from './rollout.js'
import { CODEX_ROLLOUT_VOCABULARY } from './rollout-vocabulary.js'

const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'inter_agent_communication_metadata', 'token_usage_record'])
const EXEC_TYPES = new Set(['thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed'])

/** The session rollout, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`. */
export const codexRolloutFormat: LineFormat = {
  kind: 'lines',
  name: 'codex/rollout-jsonl',
  aliases: ['codex-session-jsonl'],
  adapter: CODEX_ADAPTER_ID,
  summary: 'Codex session rollout ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl)',
  extension: '.jsonl',
  createProjector: (seam) => new CodexRolloutProjector(seam),
  sniff: (record) => ROLLOUT_TYPES.has(asString(record['type']) ?? '') && 'payload' in record,
  vocabulary: CODEX_ROLLOUT_VOCABULARY,
}

/** `codex exec --json` stdout. */
export const codexExecJsonFormat: LineFormat = {
  kind: 'lines',
  name: 'codex/exec-json',
  aliases: ['codex-exec-json'],
  adapter: CODEX_ADAPTER_ID,
  summary: 'Codex stdout under exec --json',
  extension: '.jsonl',
  createProjector: (seam) => new CodexExecProjector(seam),
  // No upstream projection of this stream exists to be byte-exact with: numbers read by value.
  numbers: 'value',
  sniff: (record) => EXEC_TYPES.has(asString(record['type']) ?? ''),
  vocabulary: CODEX_EXEC_JSON_VOCABULARY,
}
