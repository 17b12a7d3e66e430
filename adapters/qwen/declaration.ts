import { commandSupport } from '../shared/command-support.js'
import type { Capabilities } from '../types.js'

export const QWEN_ADAPTER_ID = 'qwen'

/** The Qwen Code versions this adapter's readers and launch were written against. */
export const QWEN_PINNED_VERSIONS: readonly string[] = ['0.24.4']

export const QWEN_PROGRAM = 'qwen'

/** Neutral operation → the Qwen Code tool that performs it (0.24's built-in tool names). */
export const QWEN_RENDERING: Readonly<Record<string, string | null>> = {
  'dir.list': 'glob',
  'file.edit': 'edit',
  'file.read': 'read_file',
  'file.write': 'write_file',
  'mcp.call': null,
  search: 'grep_search',
  shell: 'run_shell_command',
  'skill.load': 'skill',
  'subagent.spawn': 'agent',
  'task.todo': 'todo_write',
  'web.read': 'web_fetch',
}

/** What this toolkit can do with Qwen Code: read what it writes and launch it headless; it drives no decision seam. */
export function qwenCapabilities(): Capabilities {
  return {
    adapter: { id: QWEN_ADAPTER_ID, class: 'harness' },
    versions_pinned: [...QWEN_PINNED_VERSIONS],
    tiers: { registration: 'unverified', call: 'unverified', turn: 'unverified', kill: 'unverified' },
    commands: commandSupport(['halt', 'interrupt']),
    decision_modes: { ask: 'absent', frame: 'absent', observe: 'delivered' },
    rendering: { ...QWEN_RENDERING },
  }
}
