import type { LineFormat } from '../formats.js'
import { asString } from '../shared/fields.js'
import { CLAUDE_ADAPTER_ID } from './declaration.js'
import { ClaudeProjector } from './read.js'

const STREAM_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event', 'rate_limit_event', 'control_request', 'control_response'])
const SESSION_ONLY_TYPES = new Set(['queue-operation', 'file-history-snapshot', 'summary', 'last-prompt', 'progress'])

/** `claude -p --output-format stream-json --verbose` stdout. */
export const claudeStreamJsonFormat: LineFormat = {
  kind: 'lines',
  name: 'claude-code/stream-json',
  aliases: ['claude-stream-json'],
  adapter: CLAUDE_ADAPTER_ID,
  summary: 'Claude Code stdout under -p --output-format stream-json --verbose',
  extension: '.jsonl',
  createProjector: (seam) => new ClaudeProjector(seam, 'stream-json'),
  sniff: (record) => STREAM_TYPES.has(asString(record['type']) ?? '') && typeof record['session_id'] === 'string',
}

/** Claude Code's own transcript, `<config>/projects/<cwd-slug>/<session-id>.jsonl`. */
export const claudeSessionFormat: LineFormat = {
  kind: 'lines',
  name: 'claude-session-jsonl',
  aliases: [],
  adapter: CLAUDE_ADAPTER_ID,
  summary: 'Claude Code session transcript (projects/<cwd-slug>/<session-id>.jsonl)',
  extension: '.jsonl',
  createProjector: (seam) => new ClaudeProjector(seam, 'session'),
  sniff: (record) => typeof record['sessionId'] === 'string' || SESSION_ONLY_TYPES.has(asString(record['type']) ?? ''),
}
