import type { Emission } from './types.js'

/**
 * The `warning` codes by which a harness's own record says it refused a tool call: its approver or
 * its permission rules said no (`approval-denied`), a hook blocked the call (`hook-refused`), its
 * policy would not start the program (`program-refused`). metaharness's b10x projection writes
 * them so, beside a `permission_denials: []` that never lists them; the dsh, opencode and Gemini
 * CLI readers write them the same way. Each is one denied call, which `permission.denied` counts
 * with the vendor's list and the seam's denials.
 */
export const APPROVAL_DENIED = 'approval-denied'
export const HOOK_REFUSED = 'hook-refused'
export const REFUSAL_WARNINGS: readonly string[] = [APPROVAL_DENIED, HOOK_REFUSED, 'program-refused']

type Warning = Extract<Emission, { event: 'warning' }>

/**
 * The warning for one call the harness refused, in the harness's own words; `callId` where its
 * record says which call (metaharness's own projections name none, and write none).
 */
export function refusalWarning(code: typeof APPROVAL_DENIED | typeof HOOK_REFUSED, message: string, callId?: string): Warning {
  return callId === undefined ? { event: 'warning', code, message } : { event: 'warning', code, message, call_id: callId }
}
