import { APPROVAL_DENIED, refusalWarning } from '../../src/events/refusal-warnings.js'
import type { Emission } from '../../src/events/types.js'

/**
 * The answers Codex gives the model in place of running a call it refused (0.169.0's own words):
 * an escalation asked for under an approval policy that cannot grant one, a call the user or the
 * automatic reviewer turned down, a command its own rules forbid. Codex keeps no list of its
 * refusals, so a call's answer is the only record of one; anything else it answers is a call that
 * ran, or failed running.
 */
const REFUSALS: readonly RegExp[] = [
  // `approval policy is Never; reject command — you cannot ask for escalated permissions if …`
  /^approval policy is \w+; reject command\b/,
  /^(?:exec command|patch) rejected by user$/,
  /^automatic approval review denied the action\b/,
  /^This action was rejected due to unacceptable risk\./,
  // Codex's own command rules refused to start the process (`rm -f style commands are not permitted`,
  // `blocked by policy`, `policy forbids commands starting with …`), whatever the sandbox and approvals:
  // `exec_command failed: CreateProcess { message: "Rejected(\"`/bin/bash -lc 'rm -f x'` rejected: …\")" }`
  /^\w+ failed: CreateProcess \{ message: "Rejected\(/,
]

/** Whether a call's answer is Codex's refusal to run it. */
export function isCodexRefusal(output: unknown): output is string {
  return typeof output === 'string' && REFUSALS.some((pattern) => pattern.test(output))
}

/** The refusal warning for call `callId`, in Codex's words (its answer's first line). */
export function codexRefusalWarning(callId: string, answer: string): Extract<Emission, { event: 'warning' }> {
  return refusalWarning(APPROVAL_DENIED, `Codex refused call ${callId}: ${answer.split('\n', 1)[0]}`, callId)
}
