import { commandSupport } from '../shared/command-support.js'
import type { Capabilities } from '../types.js'

export const CLAUDE_ADAPTER_ID = 'claude'

/** The Claude Code versions this adapter's readers and launch were written against. */
export const CLAUDE_PINNED_VERSIONS: readonly string[] = ['2.1.328']

export const CLAUDE_PROGRAM = 'claude'

/** Neutral operation → the Claude Code tool that performs it (upstream's published rendering). */
export const CLAUDE_RENDERING: Readonly<Record<string, string | null>> = {
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

/**
 * What this toolkit can do with Claude Code: read what it writes and launch it. It drives no
 * decision seam, so only stopping the child it spawned is honoured.
 */
export function claudeCapabilities(): Capabilities {
  return {
    adapter: { id: CLAUDE_ADAPTER_ID, class: 'harness' },
    versions_pinned: [...CLAUDE_PINNED_VERSIONS],
    tiers: { registration: 'unverified', call: 'unverified', turn: 'unverified', kill: 'unverified' },
    commands: commandSupport(['halt', 'interrupt']),
    decision_modes: { ask: 'absent', frame: 'absent', observe: 'delivered' },
    rendering: { ...CLAUDE_RENDERING },
  }
}
