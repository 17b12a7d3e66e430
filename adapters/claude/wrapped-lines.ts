import type { CloseReason, Emission } from '../../src/events/types.js'
import { asString, isObject, type JsonObject } from '../shared/fields.js'
import { parseRecordLine } from '../shared/line-projector.js'
import type { RecordProjector } from '../types.js'

/** The stream-json record a `{timestamp, raw}` wrapper line holds: `raw` as a JSON string, or as the object itself. */
export function unwrapRecord(wrapper: JsonObject): { record: JsonObject; raw: string } | undefined {
  const raw = wrapper['raw']
  if (isObject(raw)) return { record: raw, raw: JSON.stringify(raw) }
  if (typeof raw !== 'string') return undefined
  const parsed = parseRecordLine(raw)
  return parsed.ok && isObject(parsed.value) ? { record: parsed.value, raw } : undefined
}

/**
 * Stream-json lines as some wrappers log them, one `{"timestamp": …, "raw": <line>}` per line:
 * each wrapped record goes to the stream-json projector as if it were the line itself, stamped
 * with the wrapper's time where the record has none of its own.
 */
export class WrappedLineProjector implements RecordProjector {
  constructor(private readonly inner: RecordProjector) {}

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const unwrapped = unwrapRecord(record)
    if (!unwrapped) return this.inner.pushUnreadable(raw, lineNumber)
    const at = asString(record['timestamp'])
    const inner = at !== undefined && unwrapped.record['timestamp'] === undefined ? { ...unwrapped.record, timestamp: at } : unwrapped.record
    return this.inner.pushRecord(inner, unwrapped.raw, lineNumber)
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    return this.inner.pushUnreadable(raw, lineNumber)
  }

  finish(): Emission[] {
    return this.inner.finish()
  }

  closure(): CloseReason | null {
    return this.inner.closure()
  }
}
