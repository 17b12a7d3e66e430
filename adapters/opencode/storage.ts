import type { CloseReason, Emission } from '../../src/events/types.js'
import { compareCodePoints } from '../../src/events/json.js'
import type { DocumentFormat, DocumentReader, ParsedDocument } from '../formats.js'
import { asObject, asString, millisToIso, type JsonObject } from '../shared/fields.js'
import { opaqueValue } from '../shared/opaque.js'
import { UnseenNestedCalls } from '../shared/nested-calls.js'
import { CallClassifier, sessionStart, timed } from '../shared/session.js'
import { DriftWatch } from '../shared/vocabulary.js'
import type { SeamOptions } from '../types.js'
import { OPENCODE_STORAGE_VOCABULARY } from './opencode-vocabulary.js'
import { OPENCODE_ADAPTER_ID, OPENCODE_TOOL_OPERATIONS, partEvents } from './parts.js'

interface Stored {
  readonly value: JsonObject
  readonly file: string
}

function byId(a: Stored, b: Stored): number {
  return compareCodePoints(asString(a.value['id']) ?? '', asString(b.value['id']) ?? '')
}

function createdAt(value: JsonObject): string | undefined {
  const time = asObject(value['time'])
  return time ? (millisToIso(time['created']) ?? millisToIso(time['start'])) : undefined
}

function errorMessage(error: JsonObject): string {
  const data = asObject(error['data'])
  return (data && asString(data['message'])) ?? asString(error['message']) ?? asString(error['name']) ?? 'the message ended in an error'
}

/**
 * opencode's storage tree (`storage/session/<proj>/<ses>.json`, `message/<ses>/<msg>.json`,
 * `part/<msg>/<prt>.json`). Path order puts every message before every session, so the reader
 * holds the objects and writes them back in conversation order: each session, then its messages
 * by id, each followed by its parts by id (opencode's ids grow with time).
 */
class OpencodeStorageReader implements DocumentReader {
  private readonly sessions: Stored[] = []
  private readonly messages: Stored[] = []
  private readonly parts: Stored[] = []
  private readonly other: Stored[] = []
  private readonly calls = new CallClassifier(OPENCODE_TOOL_OPERATIONS, OPENCODE_ADAPTER_ID)
  // Storage proves no end, so what this notes of a script's unrecorded calls voids nothing.
  private readonly nested = new UnseenNestedCalls()
  private readonly drift = new DriftWatch(OPENCODE_STORAGE_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {}

  pushDocument(document: ParsedDocument): Emission[] {
    const value = document.value
    const stored = { value, file: document.file }
    if (typeof value['messageID'] === 'string' && typeof value['type'] === 'string') this.parts.push(stored)
    else if (typeof value['role'] === 'string' && typeof value['sessionID'] === 'string') this.messages.push(stored)
    else if (typeof value['id'] === 'string' && ('projectID' in value || 'directory' in value)) this.sessions.push(stored)
    else this.other.push(stored)
    return []
  }

  finish(): Emission[] {
    const out: Emission[] = []
    const partsOf = new Map<string, Stored[]>()
    for (const part of this.parts.sort(byId)) {
      const id = asString(part.value['messageID']) as string
      const list = partsOf.get(id) ?? []
      list.push(part)
      partsOf.set(id, list)
    }
    const messagesOf = new Map<string, Stored[]>()
    for (const message of this.messages.sort(byId)) {
      const id = asString(message.value['sessionID']) as string
      const list = messagesOf.get(id) ?? []
      list.push(message)
      messagesOf.set(id, list)
    }
    const writeMessage = (message: Stored): void => {
      const value = message.value
      const role = asString(value['role']) ?? null
      const model = asString(value['modelID']) ?? null
      const at = createdAt(value)
      const id = asString(value['id']) ?? ''
      for (const part of partsOf.get(id) ?? []) out.push(...partEvents(part.value, role, model, 1, this.calls, createdAt(part.value) ?? at, this.nested))
      partsOf.delete(id)
      const error = asObject(value['error'])
      if (error) out.push(...timed([{ event: 'warning', code: 'opencode-error', message: errorMessage(error) }], at))
    }
    for (const session of this.sessions.sort(byId)) {
      const value = session.value
      const id = asString(value['id']) ?? ''
      const at = createdAt(value)
      this.drift.sawVersion(asString(value['version']))
      const start = sessionStart(OPENCODE_ADAPTER_ID, this.seam, {
        harness_version: asString(value['version']) ?? this.seam.harnessVersion ?? null,
        session_id: id,
        cwd: asString(value['directory']) ?? this.seam.cwd ?? null,
      })
      out.push(at === undefined ? start : { ...start, at })
      for (const message of messagesOf.get(id) ?? []) writeMessage(message)
      messagesOf.delete(id)
    }
    // Messages and parts whose session or message file is absent: still read, never dropped.
    for (const messages of messagesOf.values()) for (const message of messages) writeMessage(message)
    for (const parts of partsOf.values()) for (const part of parts) out.push(...partEvents(part.value, null, null, 1, this.calls, createdAt(part.value), this.nested))
    for (const stored of this.other) {
      this.drift.sawUnknown('storage')
      out.push(opaqueValue(stored.value, 'storage', null, 1))
    }
    for (const event of out) if (event.event === 'opaque' && event.vendor_type === 'part') this.drift.sawUnknown('part', event.vendor_subtype ?? null)
    return [...out, ...this.drift.finish()]
  }

  closure(): CloseReason | null {
    // Storage is a snapshot of a session that may go on.
    return null
  }
}

/** opencode's per-object storage tree (`XDG_DATA_HOME/opencode/storage`). */
export const opencodeStorageFormat: DocumentFormat = {
  kind: 'documents',
  name: 'opencode-storage-json',
  aliases: [],
  adapter: OPENCODE_ADAPTER_ID,
  summary: "opencode's storage tree (session/, message/, part/ JSON objects)",
  extension: '.json',
  vocabulary: OPENCODE_STORAGE_VOCABULARY,
  createReader: (seam) => new OpencodeStorageReader(seam),
  sniff: (document) =>
    (typeof document['messageID'] === 'string' && typeof document['sessionID'] === 'string') ||
    (typeof document['role'] === 'string' && typeof document['sessionID'] === 'string' && typeof document['id'] === 'string') ||
    (typeof document['id'] === 'string' && (document['id'] as string).startsWith('ses') && 'projectID' in document),
}
