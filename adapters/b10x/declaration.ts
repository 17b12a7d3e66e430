import { commandSupport } from '../shared/command-support.js'
import type { Capabilities } from '../types.js'

export const B10X_ADAPTER_ID = 'b10x'
export const B10X_ADAPTER_CLASS = 'direct_provider'

/** The `b10x-harness` versions this adapter is pinned to (upstream's newest pin). */
export const B10X_PINNED_VERSIONS: readonly string[] = ['0.12.1']

/** The vendor binary's name, resolved on the child's constructed PATH. */
export const B10X_PROGRAM = 'b10x-harness'

/**
 * Neutral operation → the catalogue entry that performs it, `null` where the loop has none
 * (no web fetch, no skills, no subagents, no todo list, no MCP client). `shell` renders to
 * `run`, which takes an argv, not a shell line: it is the loop's nearest "start a process".
 */
export const B10X_RENDERING: Readonly<Record<string, string | null>> = {
  'dir.list': 'dir_list',
  'file.edit': 'file_edit',
  'file.read': 'file_read',
  'file.write': 'file_write',
  'mcp.call': null,
  search: 'search',
  shell: 'run',
  'skill.load': null,
  'subagent.spawn': null,
  'task.todo': null,
  'web.read': null,
}

// The adapter observes and decides nothing (invariant 9): only stopping the child it spawned is honoured.
const HONOURED = ['halt', 'interrupt']

/** What the b10x adapter can and cannot do, as `metaharness capabilities b10x` prints it. */
export function b10xCapabilities(): Capabilities {
  return {
    adapter: { id: B10X_ADAPTER_ID, class: B10X_ADAPTER_CLASS },
    versions_pinned: [...B10X_PINNED_VERSIONS],
    tiers: { registration: 'unverified', call: 'unverified', turn: 'unverified', kill: 'unverified' },
    commands: commandSupport(HONOURED),
    decision_modes: { ask: 'unverified', frame: 'unverified', observe: 'delivered' },
    rendering: { ...B10X_RENDERING },
  }
}
