import type { CloseReason, Emission } from '../../src/events/types.js'
import type { DocumentReader, ParsedDocument } from '../formats.js'
import { asArray, isObject } from '../shared/fields.js'
import type { SeamOptions } from '../types.js'
import { ClaudeProjector, type StreamJsonDialect } from './read.js'

/** The key the JSON-array document's records are read under. */
export const JSON_ARRAY_KEY = 'records'

/**
 * `claude -p --output-format json --verbose`: the stream-json records printed as one JSON array
 * once the run ends. Each element is read as the stream-json line it would have been, in order,
 * numbered by the line it starts on. Qwen Code's `--output-format json` prints its stream-json so
 * too, read with its dialect.
 */
export class ClaudeJsonArrayReader implements DocumentReader {
  private readonly projector: ClaudeProjector

  constructor(seam: SeamOptions, dialect?: StreamJsonDialect) {
    this.projector = new ClaudeProjector(seam, 'stream-json', dialect)
  }

  pushDocument(document: ParsedDocument): Emission[] {
    const out: Emission[] = []
    const records = asArray(document.value[JSON_ARRAY_KEY]) ?? []
    records.forEach((record, index) => {
      const line = document.lineOf(JSON_ARRAY_KEY, index) ?? index + 1
      const raw = JSON.stringify(record)
      out.push(...(isObject(record) ? this.projector.pushRecord(record, raw, line) : this.projector.pushUnreadable(raw, line)))
    })
    return out
  }

  finish(): Emission[] {
    return this.projector.finish()
  }

  closure(): CloseReason | null {
    return this.projector.closure()
  }
}
