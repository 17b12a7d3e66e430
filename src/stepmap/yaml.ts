import { readYaml } from '../util/yaml.js'
import type { StepMapDiagnostic } from './diagnostics.js'

/**
 * Reads a YAML (or JSON) document into plain values, refusing a key written twice: serde refuses
 * one, and keeping either copy silently would run a step nobody reviewed. Alias bombs and absurd
 * nesting are refused by the shared reader, with the file and line.
 */
export function readYamlValue(text: string, source: string): { value?: unknown; diagnostics: StepMapDiagnostic[] } {
  const result = readYaml(text)
  if (result.ok) return { value: result.value, diagnostics: [] }
  return {
    diagnostics: result.problems.map((problem) => ({
      code: problem.code === 'DUPLICATE_KEY' ? 'duplicate_key' : 'not_yaml',
      location: `${source}:${problem.line}:${problem.col}`,
      message: problem.message,
    })),
  }
}
