import { LineCounter, parseDocument } from 'yaml'
import type { StepMapDiagnostic } from './diagnostics.js'

/**
 * Reads a YAML (or JSON) document into plain values, refusing a key written twice: serde refuses
 * one, and keeping either copy silently would run a step nobody reviewed.
 */
export function readYamlValue(text: string, source: string): { value?: unknown; diagnostics: StepMapDiagnostic[] } {
  const lineCounter = new LineCounter()
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false, lineCounter })
  if (document.errors.length > 0) {
    return {
      diagnostics: document.errors.map((error) => {
        const at = lineCounter.linePos(error.pos[0])
        return {
          code: error.code === 'DUPLICATE_KEY' ? 'duplicate_key' : 'not_yaml',
          location: `${source}:${at.line}:${at.col}`,
          message: error.message.split('\n')[0] ?? error.message,
        }
      }),
    }
  }
  return { value: document.toJS({ maxAliasCount: 100 }) as unknown, diagnostics: [] }
}
