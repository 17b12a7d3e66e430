import { ClaudeJsonArrayReader, JSON_ARRAY_KEY } from '../claude/json-array.js'
import { ClaudeProjector, type StreamJsonDialect } from '../claude/read.js'
import type { DocumentFormat, LineFormat } from '../formats.js'
import { asObject, asString, isObject, type JsonObject } from '../shared/fields.js'
import { QWEN_ADAPTER_ID } from './declaration.js'
import { QwenSessionProjector } from './session.js'
import { QWEN_TOOL_OPERATIONS } from './operations.js'
import { QWEN_SESSION_VOCABULARY, QWEN_STREAM_JSON_VOCABULARY } from './vocabulary.js'

/**
 * Whether a record is a Qwen Code `ChatRecord`: a `uuid` and a `sessionId`, and what only Qwen
 * Code writes beside them — a `tool_result` record, a `system` record's `systemPayload`, or a
 * message of Gemini `parts` (Claude Code's session records, which share the ids, hold `content`).
 */
export function isQwenChatRecord(record: JsonObject): boolean {
  if (typeof record['uuid'] !== 'string' || typeof record['sessionId'] !== 'string') return false
  const type = asString(record['type'])
  if (type === 'tool_result') return true
  if (type === 'system') return isObject(record['systemPayload'])
  return Array.isArray(asObject(record['message'])?.['parts'])
}

/** The session file, `~/.qwen/projects/<cwd>/chats/<sessionId>.jsonl`. */
export const qwenSessionFormat: LineFormat = {
  kind: 'lines',
  name: 'qwen-code/session-jsonl',
  aliases: ['qwen-session-jsonl'],
  adapter: QWEN_ADAPTER_ID,
  summary: 'Qwen Code session file (~/.qwen/projects/<cwd>/chats/<sessionId>.jsonl)',
  extension: '.jsonl',
  createProjector: (seam) => new QwenSessionProjector(seam),
  numbers: 'value',
  sniff: isQwenChatRecord,
  vocabulary: QWEN_SESSION_VOCABULARY,
}

/** Qwen Code's stream-json is Claude Code's shape with Qwen Code's tools and version field. */
const QWEN_STREAM_JSON_DIALECT: StreamJsonDialect = {
  adapter: QWEN_ADAPTER_ID,
  tools: QWEN_TOOL_OPERATIONS,
  vocabulary: QWEN_STREAM_JSON_VOCABULARY,
  versionKey: 'qwen_code_version',
  projection: 'enriched',
  backgroundAgentsUnseen: true,
  nestedCallTools: { exec: 'the session file (its `system/ui_telemetry` tool_call records)' },
  inputCountsCacheReads: true,
}

const isQwenInit = (record: JsonObject): boolean => asString(record['type']) === 'system' && asString(record['subtype']) === 'init' && typeof record['qwen_code_version'] === 'string'

/** `qwen -p … --output-format stream-json` stdout. */
export const qwenStreamJsonFormat: LineFormat = {
  kind: 'lines',
  name: 'qwen-code/stream-json',
  aliases: ['qwen-stream-json'],
  adapter: QWEN_ADAPTER_ID,
  summary: 'Qwen Code stdout under -p --output-format stream-json',
  extension: '.jsonl',
  createProjector: (seam) => new ClaudeProjector(seam, 'stream-json', QWEN_STREAM_JSON_DIALECT),
  sniff: isQwenInit,
  vocabulary: QWEN_STREAM_JSON_VOCABULARY,
}

/** `qwen -p … --output-format json` stdout: the stream-json records as one array. */
export const qwenJsonArrayFormat: DocumentFormat = {
  kind: 'documents',
  name: 'qwen-code/json',
  aliases: [],
  adapter: QWEN_ADAPTER_ID,
  summary: 'Qwen Code stdout under -p --output-format json (the stream-json records as one array)',
  extension: '.json',
  createReader: (seam) => new ClaudeJsonArrayReader(seam, QWEN_STREAM_JSON_DIALECT),
  // Never an object: this format is a JSON array only.
  sniff: () => false,
  array: { key: JSON_ARRAY_KEY, sniff: isQwenInit },
  vocabulary: QWEN_STREAM_JSON_VOCABULARY,
}
