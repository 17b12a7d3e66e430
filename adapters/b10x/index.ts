import { replayStream, replayText, type ReplayStreamOptions } from '../replay.js'
import type { SeamOptions } from '../types.js'
import { B10xProjector } from './read.js'

export { B10xProjector } from './read.js'
export { B10X_OBLIGATIONS, B10X_FLAG_SURFACE } from './contract.js'
export { planB10xLaunch, b10xChildPath } from './launch.js'
export { resolveProgram } from '../shared/resolve-program.js'
export type { B10xLaunchInputs, B10xCredential, B10xConfinement } from './launch.js'
export {
  B10X_ADAPTER_ID,
  B10X_ADAPTER_CLASS,
  B10X_PINNED_VERSIONS,
  B10X_PROGRAM,
  B10X_RENDERING,
  b10xCapabilities,
} from './declaration.js'

/** Replays a b10x loop record held in memory into the exact `metaharness.event/1` text. */
export function replayB10xLoop(text: string, seam: SeamOptions): string {
  return replayText(new B10xProjector(seam), text, seam.run)
}

/** Replays a b10x loop record of any size, one line at a time, yielding the stream in chunks. */
export function replayB10xStream(
  source: AsyncIterable<Uint8Array | string>,
  seam: SeamOptions,
  options?: ReplayStreamOptions,
): AsyncGenerator<string> {
  return replayStream(new B10xProjector(seam), source, seam.run, options)
}
