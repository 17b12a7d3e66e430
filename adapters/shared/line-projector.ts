import { parseJsonLossless } from '../../src/events/json.js'
import { isBlank } from '../../src/events/lines.js'
import type { LineProjector, RecordProjector } from '../types.js'
import { isObject } from './fields.js'

/**
 * Parses one line the way every reader here does: JSON with its number lexemes kept, or
 * `undefined` when the line is not JSON at all.
 */
export function parseRecordLine(line: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJsonLossless(line) }
  } catch {
    return { ok: false }
  }
}

/**
 * A `LineProjector` over a `RecordProjector`, for callers that push raw lines (replays, vectors):
 * every unreadable line is carried as opaque, never refused.
 */
export function lineProjectorOf(projector: RecordProjector): LineProjector {
  return {
    pushLine(line, lineNumber) {
      if (isBlank(line)) return []
      const parsed = parseRecordLine(line)
      if (!parsed.ok || !isObject(parsed.value)) return projector.pushUnreadable(line, lineNumber)
      return projector.pushRecord(parsed.value, line, lineNumber)
    },
    pushUndecodable(bytes, lineNumber) {
      return projector.pushUnreadable(bytes, lineNumber)
    },
    finish() {
      return projector.finish()
    },
  }
}
