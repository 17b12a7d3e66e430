import type { LineFormat } from '../formats.js'
import { asObject, asString, isObject, type JsonObject } from '../shared/fields.js'
import { QWEN_ADAPTER_ID } from './declaration.js'
import { QwenSessionProjector } from './session.js'
import { QWEN_SESSION_VOCABULARY } from './vocabulary.js'

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
