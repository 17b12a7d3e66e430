import { TranscriptError } from '../../adapters/errors.js'
import { withCleanStack } from '../util/clean-stack.js'
import { InputError } from '../util/read-input.js'

/*
 * Inside Vitest a refusal must read as the CLI's does: a code, the file, a sentence. Vitest prints
 * an error's stack frames under its message, and for a refusal those frames point into this
 * package (`dist/…` once installed), which says nothing to the user. So a refusal leaves Vitest
 * with a stack that is its first line alone; the code stays on the error for reporters.
 */

/** What the input was, for the sentence of an OS-level failure to read it. */
export type RefusedInput = 'transcript' | 'specification' | 'step map' | 'workflow' | 'cassette' | 'vectors'

const FS_CODES = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EISDIR', 'ELOOP', 'ENAMETOOLONG'])

function isCoded(error: unknown): error is Error & { code: string } {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined
  return typeof code === 'string' && /^(VH_|TRACE-)/.test(code)
}

export { withCleanStack }

/**
 * A failure to read a user's input as a coded refusal: the package's own refusals (`VH_…`,
 * `TRACE-…`) keep their code and message; an OS error reading the file (`ENOENT`, `EACCES`…)
 * becomes the CLI's refusal for that input. Anything else — a bug — is returned as it is, stack and all.
 */
export function asRefusal(error: unknown, what: RefusedInput, shownAs?: string): unknown {
  if (isCoded(error)) return withCleanStack(error)
  const code = (error as { code?: unknown } | null)?.code
  if (!(error instanceof Error) || typeof code !== 'string' || !FS_CODES.has(code)) return error
  const path = shownAs ?? (error as { path?: unknown }).path
  const file = typeof path === 'string' ? path : `the ${what}`
  const missing = code === 'ENOENT' || code === 'ENOTDIR'
  const refusal =
    what === 'transcript' && missing
      ? new TranscriptError('VH_TRANSCRIPT_MISSING', file, null, 'cannot read the transcript: no such file or directory')
      : new InputError(missing ? 'VH_INPUT_MISSING' : 'VH_INPUT_UNREADABLE', file, `cannot read the ${what}: ${missing ? 'no such file' : code}`)
  return withCleanStack(refusal)
}
