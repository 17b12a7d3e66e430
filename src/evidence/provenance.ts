import type { EvidenceProvenance } from './types.js'

/** Provenance with every empty field left out, in upstream's key order; `undefined` when empty. */
export function compactProvenance(provenance: EvidenceProvenance | undefined): EvidenceProvenance | undefined {
  if (!provenance) return undefined
  const compact: EvidenceProvenance = {
    command: provenance.command || undefined,
    tool: provenance.tool || undefined,
    revision: provenance.revision || undefined,
    workspace: provenance.workspace || undefined,
    environment: provenance.environment || undefined,
    digest: provenance.digest || undefined,
    inputs: provenance.inputs && provenance.inputs.length > 0 ? [...provenance.inputs] : undefined,
  }
  return Object.values(compact).some((value) => value !== undefined) ? compact : undefined
}
