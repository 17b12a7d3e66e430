import type { SeamOptions } from '../../adapters/types.js'
import type { SeamInput } from './manifest.js'

/** The seam a replay vector pins, as the adapters take it. */
export function seamFromInput(input: SeamInput): SeamOptions {
  return {
    run: input.run,
    harnessVersion: input.harnessVersion ?? null,
    model: input.model ?? null,
    cwd: input.cwd ?? null,
    transcriptPath: input.transcriptPath ?? null,
    transcriptDigest: input.transcriptDigest ?? null,
    transcriptBytes: input.transcriptBytes ?? null,
    ...(input.hermetic ? { hermetic: input.hermetic } : {}),
  }
}
