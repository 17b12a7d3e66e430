import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expandTranscriptArguments, fleetLabel } from '../fleet/expand.js'
import type { TraceTranscript } from '../trace/check/input.js'

/** A fleet of transcripts as a suite names it: a glob (or several), relative to the working directory. */
export interface TraceFleet {
  glob: string | readonly string[]
}

const GLOB_CHARACTERS = /[*?[]/

/**
 * The transcripts a suite's argument names when it names a fleet — `{ glob }`, or a path or `file:`
 * URL holding `*`, `?` or `[` that is not itself a file — expanded when the suite is collected, in
 * code-point order, each with the label its `describe` carries; undefined for one transcript.
 */
export function fleetTranscripts(input: TraceTranscript | TraceFleet, cwd = process.cwd()): { path: string; label: string }[] | undefined {
  let patterns: readonly string[]
  if (typeof input === 'object' && !(input instanceof URL) && 'glob' in input) patterns = typeof input.glob === 'string' ? [input.glob] : input.glob
  else if (typeof input === 'string' || input instanceof URL) {
    const path = input instanceof URL ? fileURLToPath(input) : input
    if (!GLOB_CHARACTERS.test(path) || existsSync(path)) return undefined
    patterns = [path]
  } else return undefined
  return expandTranscriptArguments(patterns, cwd).map((path) => ({ path, label: fleetLabel(path, cwd) }))
}
