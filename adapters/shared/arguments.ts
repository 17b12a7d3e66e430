import { parseJsonLossless } from '../../src/events/json.js'
import { isObject } from './fields.js'

/**
 * A call's arguments as an object: an object as it stands; a JSON string (how Codex, OpenAI-style
 * tool calls and most session logs write them) decoded when it decodes to an object; anything
 * else kept under `key`, so a freeform input (an `apply_patch` body) is never lost.
 */
export function argumentsObject(raw: unknown, key: string): unknown {
  if (isObject(raw)) return raw
  if (typeof raw !== 'string') return raw === undefined ? {} : { [key]: raw }
  try {
    const parsed = parseJsonLossless(raw)
    if (isObject(parsed)) return parsed
  } catch {
    // Not JSON: carried under its own key.
  }
  return { [key]: raw }
}
