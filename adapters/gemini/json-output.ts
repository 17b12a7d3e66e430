import { requestsUnmarkedWarning } from '../../src/events/requests-unmarked.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import type { DocumentFormat, DocumentReader, ParsedDocument } from '../formats.js'
import { asObject, asString, asU64, isObject } from '../shared/fields.js'
import { CallClassifier, sessionEnded, sessionStart } from '../shared/session.js'
import { DriftWatch } from '../shared/vocabulary.js'
import type { SeamOptions } from '../types.js'
import { GEMINI_ADAPTER_ID } from './declaration.js'
import { GEMINI_TOOL_OPERATIONS } from './operations.js'
import { geminiUsage } from './usage.js'
import { GEMINI_JSON_OUTPUT_VOCABULARY } from './vocabulary.js'

/**
 * `gemini -p … --output-format json` stdout: one document, `{session_id, response, stats, error?}`.
 * It says how many times each tool was called (`stats.tools.byName`) but not in which order, with
 * which arguments, or what came back: each counted call becomes a `tool.requested` with no input
 * (named `<tool>#<n>`), classified by name alone, with no result; a warning says so. It never
 * proves the run's order or closure, so an absence check over it stays undecided.
 */
class GeminiJsonOutputReader implements DocumentReader {
  private readonly classifier = new CallClassifier(GEMINI_TOOL_OPERATIONS, GEMINI_ADAPTER_ID)
  private readonly drift = new DriftWatch(GEMINI_JSON_OUTPUT_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {
    this.drift.sawVersion(seam.harnessVersion)
  }

  pushDocument(document: ParsedDocument): Emission[] {
    const value = document.value
    if (!('response' in value) && !('error' in value)) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, 1, 'the document is not Gemini CLI --output-format json output: it has neither response nor error')
    const stats = asObject(value['stats'])
    const events: Emission[] = [
      sessionStart(GEMINI_ADAPTER_ID, this.seam, { session_id: asString(value['session_id']) ?? null }),
      requestsUnmarkedWarning('Gemini CLI json output', 'per model over the whole run'),
    ]
    const byName = asObject(asObject(stats?.['tools'])?.['byName']) ?? {}
    const counted = Object.entries(byName).flatMap(([name, entry]) => Array.from({ length: isObject(entry) ? (asU64(entry['count']) ?? 0) : 0 }, (_, index) => `${name}#${index + 1}`))
    if (counted.length > 0) {
      events.push({ event: 'warning', code: 'gemini-json-calls-counted', message: `the json output counts ${counted.length} call(s) by tool name only: their order, arguments and results are not in it (read the session file for them)` })
      for (const id of counted) events.push(...this.classifier.call(id, id.slice(0, id.lastIndexOf('#')), null))
    }
    const models = asObject(stats?.['models']) ?? {}
    for (const [model, entry] of Object.entries(models)) {
      const tokens = asObject(asObject(entry)?.['tokens'])
      if (tokens) events.push({ event: 'usage', request_id: null, model, usage: geminiUsage({ input: asU64(tokens['prompt']), output: asU64(tokens['candidates']), cached: asU64(tokens['cached']), thoughts: asU64(tokens['thoughts']) ?? null }) })
    }
    const response = asString(value['response'])
    if (response !== undefined && response !== '') events.push({ event: 'text', text: response, request_id: null })
    const error = asObject(value['error'])
    if (error) events.push({ event: 'warning', code: 'gemini-result-error', message: asString(error['message']) ?? 'the run ended with an error' })
    events.push(sessionEnded({ final_answer: response ?? null, is_error: error !== undefined, terminal_reason: error ? 'error' : 'success', observed_models: Object.keys(models) }))
    return events
  }

  finish(): Emission[] {
    return this.drift.finish()
  }

  closure(): CloseReason | null {
    return null
  }
}

/** `gemini -p … --output-format json` stdout. */
export const geminiJsonOutputFormat: DocumentFormat = {
  kind: 'documents',
  name: 'gemini-cli/json',
  aliases: ['gemini-json'],
  adapter: GEMINI_ADAPTER_ID,
  summary: 'Gemini CLI stdout under --output-format json ({session_id, response, stats})',
  extension: '.json',
  vocabulary: GEMINI_JSON_OUTPUT_VOCABULARY,
  createReader: (seam) => new GeminiJsonOutputReader(seam),
  // `stats.models` and `stats.tools.byName` are this document's own; a bare `response` is not enough.
  sniff: (document) => {
    const stats = asObject(document['stats'])
    return ('response' in document || 'error' in document) && stats !== undefined && isObject(stats['models']) && isObject(asObject(stats['tools'])?.['byName'])
  },
}
