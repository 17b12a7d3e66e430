import { asI64, asString, isObject, type JsonObject } from '../shared/fields.js'

/** What a hermes tool row says of its call's outcome: whether it failed (null: it does not say), and a shell's exit code. */
export interface HermesOutcome {
  readonly isError: boolean | null
  readonly exitCode: number | null
}

const UNSAID: HermesOutcome = { isError: null, exitCode: null }

/** A tool row's content as the JSON object hermes' tools answer with; undefined for any other text. Read once per row. */
export function hermesAnswer(content: unknown): JsonObject | undefined {
  if (isObject(content)) return content
  if (typeof content !== 'string' || !content.startsWith('{')) return undefined
  try {
    const parsed: unknown = JSON.parse(content)
    return isObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * hermes writes no error flag on a tool row; its tools answer with JSON (`hermesAnswer`) that says. `terminal`
 * answers `{output, exit_code, error}`: a nonzero exit is a failed call, as on every other
 * harness, unless hermes' own `exit_code_meaning` calls it no error (an empty grep's 1); a meaning
 * that only says it is "often normal" (`git diff`'s 1) leaves it unsaid. Other tools answer
 * `success` (`patch`, `skill_manage`), `status` (`execute_code`) or an `error` (`read_file`'s
 * "File not found"). Anything else says nothing, and the outcome stays unknown.
 */
export function hermesOutcome(answer: JsonObject | undefined): HermesOutcome {
  if (answer === undefined) return UNSAID
  const error = asString(answer['error'])
  const failedWith = error !== undefined && error.length > 0
  const exitCode = asI64(answer['exit_code'])
  if (exitCode !== undefined) {
    if (exitCode === 0 || failedWith) return { isError: failedWith, exitCode }
    const meaning = asString(answer['exit_code_meaning'])
    if (meaning === undefined) return { isError: true, exitCode }
    return { isError: /\(not an error\)/.test(meaning) ? false : null, exitCode }
  }
  if (typeof answer['success'] === 'boolean') return { isError: !answer['success'] || failedWith, exitCode: null }
  const status = asString(answer['status'])
  if (status === 'success' || status === 'error') return { isError: status === 'error' || failedWith, exitCode: null }
  return failedWith ? { isError: true, exitCode: null } : UNSAID
}
