import { commandSupport } from '../shared/command-support.js'
import type { Capabilities } from '../types.js'

export const GEMINI_ADAPTER_ID = 'gemini'

/** The Gemini CLI versions this adapter's readers and launch were written against. */
export const GEMINI_PINNED_VERSIONS: readonly string[] = ['0.61.0']

export const GEMINI_PROGRAM = 'gemini'

/** Neutral operation → the Gemini CLI tool that performs it (0.61's built-in tool names). */
export const GEMINI_RENDERING: Readonly<Record<string, string | null>> = {
  'dir.list': 'list_directory',
  'file.edit': 'replace',
  'file.read': 'read_file',
  'file.write': 'write_file',
  'mcp.call': null,
  search: 'grep_search',
  shell: 'run_shell_command',
  'skill.load': 'activate_skill',
  'subagent.spawn': 'invoke_agent',
  'task.todo': 'write_todos',
  'web.read': 'web_fetch',
}

/** What this toolkit can do with Gemini CLI: read what it writes and launch it headless; it drives no decision seam. */
export function geminiCapabilities(): Capabilities {
  return {
    adapter: { id: GEMINI_ADAPTER_ID, class: 'harness' },
    versions_pinned: [...GEMINI_PINNED_VERSIONS],
    tiers: { registration: 'unverified', call: 'unverified', turn: 'unverified', kill: 'unverified' },
    commands: commandSupport(['halt', 'interrupt']),
    decision_modes: { ask: 'absent', frame: 'absent', observe: 'delivered' },
    rendering: { ...GEMINI_RENDERING },
  }
}
