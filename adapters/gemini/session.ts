import type { CloseReason, Emission } from '../../src/events/types.js'
import { asArray, asString, isObject, type JsonObject } from '../shared/fields.js'
import { opaqueLine } from '../shared/opaque.js'
import { sessionStart } from '../shared/session.js'
import { DriftWatch, knowsRecord } from '../shared/vocabulary.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { GEMINI_ADAPTER_ID } from './declaration.js'
import { GeminiMessages } from './messages.js'
import { GEMINI_SESSION_VOCABULARY } from './vocabulary.js'

/** The key a session-file line is known by in the vocabulary. */
export function sessionRecordKey(record: JsonObject): string | null {
  if (typeof record['sessionId'] === 'string' && typeof record['projectHash'] === 'string') return 'metadata'
  if (isObject(record['$set'])) return '$set'
  if (typeof record['$rewindTo'] === 'string') return '$rewindTo'
  if (typeof record['id'] === 'string') return asString(record['type']) ?? null
  return null
}

/**
 * The Gemini CLI session file (0.61's chat recording, JSONL): a metadata line, then message
 * records (read by `GeminiMessages`, which keeps the latest copy of each), `$set` metadata
 * updates and `$rewindTo` markers. A user record of `functionResponse` parts repeats results the
 * calls already carry. The file has no end marker: it never proves the run closed.
 */
export class GeminiSessionProjector implements RecordProjector {
  private readonly messages = new GeminiMessages()
  private readonly drift = new DriftWatch(GEMINI_SESSION_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {
    this.drift.sawVersion(seam.harnessVersion)
  }

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    return [...this.messages.flush(), opaqueLine(raw, null, null, lineNumber)]
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const key = sessionRecordKey(record)
    if (key === null || !knowsRecord(GEMINI_SESSION_VOCABULARY, key)) {
      this.drift.sawUnknown(key)
      return [...this.messages.flush(), opaqueLine(raw, key, null, lineNumber)]
    }
    switch (key) {
      case 'metadata':
        return [...this.messages.flush(), sessionStart(GEMINI_ADAPTER_ID, this.seam, { session_id: asString(record['sessionId']) ?? null })]
      case '$set': {
        // A metadata update; when it sets `messages`, those are the conversation's opening records.
        const messages = asArray((record['$set'] as JsonObject)['messages']) ?? []
        return messages.flatMap((message) => (isObject(message) ? this.messages.hold(message, asString(message['type']) ?? '') : []))
      }
      case '$rewindTo':
        return [
          ...this.messages.flush(),
          { event: 'warning', code: 'gemini-rewind', message: `the user rewound the conversation to message ${asString(record['$rewindTo']) ?? ''}; the calls before the rewind ran and stay in this stream` },
        ]
      default:
        return this.messages.hold(record, key)
    }
  }

  finish(): Emission[] {
    return [...this.messages.flush(), ...this.drift.finish()]
  }

  closure(): CloseReason | null {
    return null
  }
}
