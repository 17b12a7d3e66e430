import { commandSupport } from '../shared/command-support.js'
import type { Capabilities } from '../types.js'

export const CODEX_ADAPTER_ID = 'codex'

/** The Codex CLI versions this adapter's readers and launch were written against. */
export const CODEX_PINNED_VERSIONS: readonly string[] = ['0.169.0']

export const CODEX_PROGRAM = 'codex'

/** Neutral operation → Codex tool, in the names its own record uses. */
export const CODEX_RENDERING: Readonly<Record<string, string | null>> = {
  'dir.list': null,
  'file.edit': 'apply_patch',
  'file.read': null,
  'file.write': 'apply_patch',
  'mcp.call': null,
  search: null,
  shell: 'exec_command',
  'skill.load': null,
  'subagent.spawn': null,
  'task.todo': 'update_plan',
  'web.read': null,
}

/** What this toolkit can do with Codex: read its records and launch `codex exec`; it decides nothing. */
export function codexCapabilities(): Capabilities {
  return {
    adapter: { id: CODEX_ADAPTER_ID, class: 'harness' },
    versions_pinned: [...CODEX_PINNED_VERSIONS],
    tiers: { registration: 'unverified', call: 'unverified', turn: 'unverified', kill: 'unverified' },
    commands: commandSupport(['halt', 'interrupt']),
    decision_modes: { ask: 'absent', frame: 'absent', observe: 'delivered' },
    rendering: { ...CODEX_RENDERING },
  }
}
