import { APPROVAL_DENIED, HOOK_REFUSED, refusalWarning } from '../../src/events/refusal-warnings.js'
import type { Emission } from '../../src/events/types.js'

/**
 * Gemini CLI's words for a call it refused (0.61, `scheduler/policy.ts` and its hooks): a policy
 * rule denied it ("Tool execution denied by policy." and the rule's own message) or a hook blocked
 * it ("Tool execution blocked: …"). Its stream-json also types the error `policy_violation`; its
 * session file keeps the words alone, as the call's `error` response.
 */
const DENIED = 'Tool execution denied by policy.'
const BLOCKED = 'Tool execution blocked'

/** Whether an error a call answered is Gemini CLI's refusal to run it. */
export function isGeminiRefusal(error: unknown): error is string {
  return typeof error === 'string' && (error.startsWith(DENIED) || error.startsWith(BLOCKED))
}

/** The refusal warning for call `callId`, refused in Gemini CLI's words: a hook's block, or a policy's denial. */
export function geminiRefusalWarning(message: string, callId: string): Extract<Emission, { event: 'warning' }> {
  return refusalWarning(message.startsWith(BLOCKED) ? HOOK_REFUSED : APPROVAL_DENIED, message, callId)
}
