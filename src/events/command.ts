import { z } from 'zod'
import { decisionSchema } from './schema.js'
import type { Decision } from './types.js'

/**
 * `metaharness.command/1`: what an embedder tells a run. Each command yields exactly one
 * `command.result` with the command's id; a refusal is a result, never silence.
 */

/** Why a command was refused, as upstream spells the codes on the wire. */
export const REFUSAL_CODES = ['UNSUPPORTED_CONTROL', 'UNKNOWN_CALL', 'TOO_LATE', 'MALFORMED', 'SHADOWED'] as const
export type RefusalCode = (typeof REFUSAL_CODES)[number]

const reason = () => z.string()

/** One command, tagged by `command`; the fields upstream declares for each. */
export const commandSchema = z.discriminatedUnion('command', [
  z.strictObject({ command: z.literal('tool.decide'), call_id: z.string().min(1), decision: decisionSchema }),
  z.strictObject({ command: z.literal('frame.set'), frame: z.record(z.string(), z.unknown()) }),
  z.strictObject({ command: z.literal('message.inject'), text: z.string() }),
  z.strictObject({ command: z.literal('steer'), text: z.string() }),
  z.strictObject({ command: z.literal('permission.set'), posture: z.string() }),
  z.strictObject({ command: z.literal('interrupt'), reason: reason() }),
  z.strictObject({ command: z.literal('halt'), reason: reason() }),
])

export type Command = z.output<typeof commandSchema>

/** What happened to one command (the `outcome` of `command.result`). */
export type CommandOutcome =
  | { result: 'ok'; applies_at: string | null }
  | { result: 'refused'; refused: { code: RefusalCode; reason: string } }

export function refusedOutcome(code: RefusalCode, why: string): CommandOutcome {
  return { result: 'refused', refused: { code, reason: why } }
}

export function okOutcome(appliesAt: string | null = null): CommandOutcome {
  return { result: 'ok', applies_at: appliesAt }
}

/**
 * Whether a decision is well-formed on its own terms: a deny must say why, because the reason is
 * the only part the model can act on.
 */
export function isWellFormedDecision(decision: Decision): boolean {
  return decision.decision !== 'deny' || decision.reason.trim().length > 0
}
