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

/**
 * The attestation a reader stamps for `seam`: the caller's own, with every row the writer emits. A
 * partial one (`{ mode: 'strict', decisions: 'observe' }`) takes `fallback`'s mode/decisions where it
 * leaves them out and upstream's empty rows, so it never yields a header missing its four arrays
 * (issue 13: the README's first example differed from its golden file on line 1 for this reason).
 */
export function seamAttestation(seam: SeamOptions, fallback: Hermetic = NO_ATTESTATION): Hermetic {
  const given = seam.hermetic
  if (!given) return fallback
  return {
    mode: given.mode ?? fallback.mode ?? null,
    decisions: given.decisions ?? fallback.decisions ?? null,
    imposed: given.imposed ?? [],
    unavailable: given.unavailable ?? [],
    ambient_inputs: given.ambient_inputs ?? [],
    installed_plugins: given.installed_plugins ?? [],
    ...(given.stream_complete === undefined ? {} : { stream_complete: given.stream_complete }),
    ...(given.stream_events === undefined ? {} : { stream_events: given.stream_events }),
    ...(given.stream_reason === undefined ? {} : { stream_reason: given.stream_reason }),
  }
}

export function transcriptRef(seam: SeamOptions): { path: string | null; digest: string | null; bytes: number | null } {
  return { path: seam.transcriptPath ?? null, digest: seam.transcriptDigest ?? null, bytes: seam.transcriptBytes ?? null }
}

/** `enriched` unless the caller asked for upstream's own projection. */
export function isEnriched(seam: SeamOptions, fallback: 'upstream' | 'enriched'): boolean {
  return (seam.projection ?? fallback) === 'enriched'
}
