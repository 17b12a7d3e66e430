import type { DocumentFormat, LineFormat } from '../formats.js'
import { asString, type JsonObject } from '../shared/fields.js'
import { CLAUDE_ADAPTER_ID } from './declaration.js'
import { ClaudeJsonArrayReader, JSON_ARRAY_KEY } from './json-array.js'
import { ClaudeProjector } from './read.js'
import { CLAUDE_SESSION_VOCABULARY } from './session-vocabulary.js'
import { CLAUDE_STREAM_JSON_VOCABULARY } from './stream-json-vocabulary.js'
import { unwrapRecord, WrappedLineProjector } from './wrapped-lines.js'

const STREAM_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event', 'rate_limit_event', 'control_request', 'control_response'])
const SESSION_ONLY_TYPES = new Set(['queue-operation', 'file-history-snapshot', 'summary', 'last-prompt', 'progress', 'attachment', 'permission-mode', 'custom-title', 'ai-title', 'agent-name'])

/** `claude -p --output-format stream-json --verbose` stdout. */
export const claudeStreamJsonFormat: LineFormat = {
  kind: 'lines',
  name: 'claude-code/stream-json',
  aliases: ['claude-stream-json'],
  adapter: CLAUDE_ADAPTER_ID,
  summary: 'Claude Code stdout under -p --output-format stream-json --verbose',
  extension: '.jsonl',
  createProjector: (seam) => new ClaudeProjector(seam, 'stream-json'),
  sniff: isStreamJsonRecord,
  vocabulary: CLAUDE_STREAM_JSON_VOCABULARY,
}

// Qwen Code prints the same records; its `system/init` names its own version (qwen-code/stream-json).
function isStreamJsonRecord(record: JsonObject): boolean {
  return STREAM_TYPES.has(asString(record['type']) ?? '') && typeof record['session_id'] === 'string' && !('qwen_code_version' in record)
}

/** Stream-json lines a wrapper logged as `{"timestamp": …, "raw": <the line>}`. */
export const claudeWrappedStreamJsonFormat: LineFormat = {
  kind: 'lines',
  name: 'claude-code/stream-json-wrapped',
  aliases: [],
  adapter: CLAUDE_ADAPTER_ID,
  summary: 'Claude Code stream-json lines wrapped as {timestamp, raw} by a logging wrapper',
  extension: '.jsonl',
  createProjector: (seam) => new WrappedLineProjector(new ClaudeProjector(seam, 'stream-json')),
  sniff: (record) => {
    if (!('raw' in record) || !('timestamp' in record)) return false
    const inner = unwrapRecord(record)
    return inner !== undefined && isStreamJsonRecord(inner.record)
  },
  vocabulary: CLAUDE_STREAM_JSON_VOCABULARY,
}

/** `claude -p --output-format json --verbose`: the stream-json records as one JSON array. */
export const claudeJsonArrayFormat: DocumentFormat = {
  kind: 'documents',
  name: 'claude-code/json-array',
  aliases: [],
  adapter: CLAUDE_ADAPTER_ID,
  summary: 'Claude Code stdout under -p --output-format json --verbose (the stream-json records as one array)',
  extension: '.json',
  createReader: (seam) => new ClaudeJsonArrayReader(seam),
  // Never an object: this format is a JSON array only.
  sniff: () => false,
  array: { key: JSON_ARRAY_KEY, sniff: (first) => asString(first['type']) === 'system' && asString(first['subtype']) === 'init' && typeof first['session_id'] === 'string' && !('qwen_code_version' in first) },
  vocabulary: CLAUDE_STREAM_JSON_VOCABULARY,
}

/**
 * What Claude Code's session records never hold, though the Gemini CLI fork Qwen Code writes
 * records with the same `uuid`/`sessionId`: a `tool_result` record type, a `systemPayload`, or a
 * message of Gemini `parts` (Claude's messages hold `content`).
 */
function hasGeminiShape(record: JsonObject): boolean {
  if (asString(record['type']) === 'tool_result' || 'systemPayload' in record) return true
  const message = record['message']
  return message !== null && typeof message === 'object' && Array.isArray((message as JsonObject)['parts'])
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
  // Gemini CLI's session metadata line has a `sessionId` too, beside a `projectHash` no Claude record has.
  sniff: (record) => (typeof record['sessionId'] === 'string' && !('projectHash' in record) && !hasGeminiShape(record)) || SESSION_ONLY_TYPES.has(asString(record['type']) ?? ''),
  vocabulary: CLAUDE_SESSION_VOCABULARY,
  subagentsFollowParents: true,
}
