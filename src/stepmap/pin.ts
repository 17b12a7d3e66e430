import { identifierProblem } from '../evidence/intake-values.js'

/** A workflow reference pinned to a major version: `adp/default/2`. */
export interface WorkflowPin {
  readonly id: string
  readonly major: number
}

/** How a workflow reference reads: `[workflow:]<id>[/<major>]`, or why it does not. */
export type WorkflowRefReading = { id: string; major: number | undefined } | { problem: string }

const U32_MAX = 2 ** 32 - 1

/**
 * Reads a `WorkflowRef`: an optional `workflow:` prefix, a dotted identifier that never ends in a
 * numeric segment, and an optional `/<major>` (`[1-9][0-9]*`, a `u32`).
 */
export function readWorkflowRef(written: string): WorkflowRefReading {
  const body = written.startsWith('workflow:') ? written.slice('workflow:'.length) : written
  const slash = body.lastIndexOf('/')
  const tail = slash === -1 ? '' : body.slice(slash + 1)
  if (/^[0-9]+$/.test(tail)) {
    if (!/^[1-9][0-9]*$/.test(tail) || Number(tail) > U32_MAX) return { problem: `\`${tail}\` is not a major version (1 to ${U32_MAX}, no leading zero)` }
    const id = body.slice(0, slash)
    const problem = identifierProblem(id, 'dotted', 'workflow')
    return problem ? { problem } : { id, major: Number(tail) }
  }
  const problem = identifierProblem(body, 'dotted', 'workflow')
  return problem ? { problem } : { id: body, major: undefined }
}

/** `adp/default/2`. */
export function renderPin(pin: WorkflowPin): string {
  return `${pin.id}/${pin.major}`
}
