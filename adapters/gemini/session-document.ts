import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import type { DocumentFormat, DocumentReader, ParsedDocument } from '../formats.js'
import { asArray, asString, isObject } from '../shared/fields.js'
import { opaqueValue } from '../shared/opaque.js'
import { sessionStart } from '../shared/session.js'
import { DriftWatch, knowsRecord } from '../shared/vocabulary.js'
import type { SeamOptions } from '../types.js'
import { GEMINI_ADAPTER_ID } from './declaration.js'
import { GeminiMessages } from './messages.js'
import { GEMINI_SESSION_JSON_VOCABULARY } from './vocabulary.js'

/**
 * The session file Gemini CLI wrote before its JSONL log (`chats/session-<time>-<id>.json`, one
 * `ConversationRecord` rewritten whole at every change): `sessionId`, `projectHash`, `startTime`,
 * `lastUpdated`, an optional `summary`, and `messages`, each held once in its latest form. Like
 * the log, it has no end marker: it never proves the run closed.
 */
class GeminiSessionDocumentReader implements DocumentReader {
  private readonly messages = new GeminiMessages()
  private readonly drift = new DriftWatch(GEMINI_SESSION_JSON_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {
    this.drift.sawVersion(seam.harnessVersion)
  }

  pushDocument(document: ParsedDocument): Emission[] {
    const root = document.value
    const list = asArray(root['messages'])
    if (!list) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, 1, 'the document is not a Gemini CLI session: it has no messages list')
    const events: Emission[] = [sessionStart(GEMINI_ADAPTER_ID, this.seam, { session_id: asString(root['sessionId']) ?? null })]
    list.forEach((message, index) => {
      const line = document.lineOf('messages', index)
      if (!isObject(message)) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, line, `message ${index + 1} is not an object`)
      const type = asString(message['type']) ?? null
      if (typeof message['id'] === 'string' && type !== null && knowsRecord(GEMINI_SESSION_JSON_VOCABULARY, type)) {
        events.push(...this.messages.hold(message, type))
        return
      }
      this.drift.sawUnknown(type)
      events.push(...this.messages.flush(), opaqueValue(message, type, null, line))
    })
    events.push(...this.messages.flush())
    return events
  }

  finish(): Emission[] {
    return this.drift.finish()
  }

  closure(): CloseReason | null {
    return null
  }
}

/** Gemini CLI's session file of the releases before its JSONL log (0.20 and 0.22 wrote it): one JSON document. */
export const geminiSessionDocumentFormat: DocumentFormat = {
  kind: 'documents',
  name: 'gemini-cli/session-json',
  aliases: ['gemini-session-json'],
  adapter: GEMINI_ADAPTER_ID,
  summary: 'Gemini CLI session file of the releases before the JSONL log (~/.gemini/tmp/<project>/chats/session-*.json)',
  extension: '.json',
  vocabulary: GEMINI_SESSION_JSON_VOCABULARY,
  createReader: (seam) => new GeminiSessionDocumentReader(seam),
  sniff: (document) => typeof document['sessionId'] === 'string' && typeof document['projectHash'] === 'string' && typeof document['startTime'] === 'string' && Array.isArray(document['messages']),
}
