import type { Hermetic } from '../../src/events/types.js'
import type { SeamOptions } from '../types.js'

/** The attestation a reader stamps when the launch made none: nothing imposed, observe only. */
export const NO_ATTESTATION: Hermetic = {
  mode: 'off',
  decisions: 'observe',
  imposed: [],
  unavailable: [],
  ambient_inputs: [],
  installed_plugins: [],
}

export function transcriptRef(seam: SeamOptions): { path: string | null; digest: string | null; bytes: number | null } {
  return { path: seam.transcriptPath ?? null, digest: seam.transcriptDigest ?? null, bytes: seam.transcriptBytes ?? null }
}

/** `enriched` unless the caller asked for upstream's own projection. */
export function isEnriched(seam: SeamOptions, fallback: 'upstream' | 'enriched'): boolean {
  return (seam.projection ?? fallback) === 'enriched'
}
