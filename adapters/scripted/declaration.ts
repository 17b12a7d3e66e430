import { commandSupport } from '../shared/command-support.js'
import type { Capabilities } from '../types.js'

/**
 * The `scripted` adapter is a **test double for the control seam**, not a harness: it drives the
 * scripted fake vendor (`bin/scripted-vendor.js`) so the C3 control machinery — decisions,
 * deadlines, refusals, interrupts — is exercised with no vendor binary, no model and no network.
 */
export const SCRIPTED_ADAPTER_ID = 'scripted'

/** The fake vendor's name, as its `--version` banner starts. */
export const SCRIPTED_PROGRAM = 'scripted-vendor'

/** The fake vendor's version: the one its banner prints. */
export const SCRIPTED_PINNED_VERSIONS: readonly string[] = ['1.0.0']

/** The fake vendor's timeout for one decision; the driver's deadline sits below it. */
export const SCRIPTED_VENDOR_TIMEOUT_MS = 30_000

/** Neutral operation → the fake vendor's tool names (modelled on a hook-based harness). */
export const SCRIPTED_RENDERING: Readonly<Record<string, string | null>> = {
  'dir.list': 'Glob',
  'file.edit': 'Edit',
  'file.read': 'Read',
  'file.write': 'Write',
  'mcp.call': null,
  search: 'Grep',
  shell: 'Bash',
  'skill.load': 'Skill',
  'subagent.spawn': 'Task',
  'task.todo': 'TodoWrite',
  'web.read': 'WebFetch',
}

// Decisions go back on the hook channel; interrupt and halt are control lines. Nothing else is wired.
const HONOURED = ['tool.decide', 'interrupt', 'halt']

/** What the scripted test double declares: the call and kill tiers, proven by its C3 vectors. */
export function scriptedCapabilities(): Capabilities {
  return {
    adapter: { id: SCRIPTED_ADAPTER_ID, class: 'harness' },
    versions_pinned: [...SCRIPTED_PINNED_VERSIONS],
    tiers: { registration: 'unverified', call: 'delivered', turn: 'absent', kill: 'delivered' },
    commands: commandSupport(HONOURED),
    decision_modes: { ask: 'delivered', frame: 'absent', observe: 'delivered' },
    rendering: { ...SCRIPTED_RENDERING },
  }
}
