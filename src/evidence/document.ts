import { writeFileAtomic } from '../util/atomic-write.js'
import { writeSerdeYaml } from './serde-yaml.js'
import type { AnyEvidenceRecord } from './types.js'

/** How an evidence document is spelled; both are read by `aep govern evaluate --evidence`. */
export type EvidenceFormat = 'yaml' | 'json'

/**
 * An evidence document: always a list, even of one, as upstream writes it. YAML is serde_yaml
 * 0.9's; JSON is `serde_json::to_string_pretty` (two-space indent) plus a newline.
 */
export function renderEvidenceDocument(records: readonly AnyEvidenceRecord[], format: EvidenceFormat): string {
  if (format === 'json') return `${JSON.stringify(records, null, 2)}\n`
  return writeSerdeYaml(records)
}

/** Writes a document atomically: a reader sees the old document or the new one, never half. */
export function writeEvidenceDocument(path: string, records: readonly AnyEvidenceRecord[], format: EvidenceFormat): string {
  const text = renderEvidenceDocument(records, format)
  writeFileAtomic(path, text)
  return text
}
