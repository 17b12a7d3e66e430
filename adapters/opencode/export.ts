import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import type { DocumentFormat, DocumentReader, ParsedDocument } from '../formats.js'
import { asArray, asObject, asString, isObject, millisToIso } from '../shared/fields.js'
import { opaqueValue } from '../shared/opaque.js'
import { UnseenNestedCalls } from '../shared/nested-calls.js'
import { CallClassifier, sessionStart, timed } from '../shared/session.js'
import { DriftWatch } from '../shared/vocabulary.js'
import type { SeamOptions } from '../types.js'
import { OPENCODE_EXPORT_VOCABULARY } from './opencode-vocabulary.js'
import { OPENCODE_ADAPTER_ID, OPENCODE_TOOL_OPERATIONS, partEvents } from './parts.js'

function startedAt(value: unknown): string | undefined {
  const time = asObject(asObject(value)?.['time'])
  return time ? (millisToIso(time['created']) ?? millisToIso(time['start'])) : undefined
}

/**
 * An `opencode export <session>` document: the session's `info` and its `messages`, each
 * `{info, parts}` — the storage tree's three kinds of object nested in one file. An export is a
 * snapshot of a session that may go on: it proves no closure.
 */
class OpencodeExportReader implements DocumentReader {
  private readonly calls = new CallClassifier(OPENCODE_TOOL_OPERATIONS, OPENCODE_ADAPTER_ID)
  // An export proves no end, so what this notes of a script's unrecorded calls voids nothing.
  private readonly nested = new UnseenNestedCalls()
  private readonly drift = new DriftWatch(OPENCODE_EXPORT_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {}

  pushDocument(document: ParsedDocument): Emission[] {
    const info = asObject(document.value['info'])
    const messages = asArray(document.value['messages'])
    if (!info || !messages) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, 1, 'the document is not an opencode export: it has no info object and messages list')
    const version = asString(info['version'])
    this.drift.sawVersion(version)
    const location = asObject(info['location'])
    const start = sessionStart(OPENCODE_ADAPTER_ID, this.seam, {
      harness_version: version ?? this.seam.harnessVersion ?? null,
      session_id: asString(info['id']) ?? null,
      cwd: asString(info['directory']) ?? (location && asString(location['directory'])) ?? this.seam.cwd ?? null,
    })
    const at = startedAt(info)
    const events: Emission[] = [at === undefined ? start : { ...start, at }]
    messages.forEach((entry, index) => {
      const line = document.lineOf('messages', index)
      const message = isObject(entry) ? asObject(entry['info']) : undefined
      const parts = isObject(entry) ? asArray(entry['parts']) : undefined
      if (!message || !parts) {
        this.drift.sawUnknown('message', null)
        events.push(opaqueValue(entry, 'export/message', null, line))
        return
      }
      const role = asString(message['role']) ?? null
      const model = asString(message['modelID']) ?? asString(asObject(message['model'])?.['modelID']) ?? null
      const messageAt = startedAt(message)
      for (const part of parts) {
        if (!isObject(part)) {
          events.push(opaqueValue(part, 'part', null, line))
          continue
        }
        const read = partEvents(part, role, model, line, this.calls, startedAt(part) ?? messageAt, this.nested)
        for (const event of read) if (event.event === 'opaque') this.drift.sawUnknown('part', asString(part['type']) ?? null)
        events.push(...read)
      }
      const error = asObject(message['error'])
      if (error) {
        const data = asObject(error['data'])
        const text = (data && asString(data['message'])) ?? asString(error['message']) ?? asString(error['name']) ?? 'the message ended in an error'
        events.push(...timed([{ event: 'warning', code: 'opencode-error', message: text }], messageAt))
      }
    })
    return events
  }

  finish(): Emission[] {
    return this.drift.finish()
  }

  closure(): CloseReason | null {
    return null
  }
}

/** `opencode export <session>` output. */
export const opencodeExportFormat: DocumentFormat = {
  kind: 'documents',
  name: 'opencode-export-json',
  aliases: ['opencode/export'],
  adapter: OPENCODE_ADAPTER_ID,
  summary: 'opencode export <session> document ({info, messages: [{info, parts}]})',
  extension: '.json',
  vocabulary: OPENCODE_EXPORT_VOCABULARY,
  createReader: (seam) => new OpencodeExportReader(seam),
  sniff: (document) => {
    const info = asObject(document['info'])
    const messages = asArray(document['messages'])
    if (!info || !messages || typeof info['id'] !== 'string') return false
    const first = messages[0]
    return first === undefined || (isObject(first) && isObject(first['info']) && Array.isArray(first['parts']))
  },
}
