import type { HarnessAdapter } from '../../adapters/adapter.js'
import { escapeForTerminal } from '../util/terminal-text.js'
import type { Capabilities, Tier } from '../../adapters/types.js'
import { COMMAND_NAMES } from '../events/format.js'
import { compareCodePoints } from '../events/json.js'
import type { LoadedVector } from './manifest.js'

/** The neutral operations a rendering table may name (the v0.1 vocabulary). */
export const OPERATIONS = [
  'dir.list',
  'file.edit',
  'file.read',
  'file.write',
  'mcp.call',
  'search',
  'shell',
  'skill.load',
  'subagent.spawn',
  'task.todo',
  'web.read',
] as const

const TIERS: readonly Tier[] = ['registration', 'call', 'turn', 'kill']

/** Why a declaration contradicts itself or its vectors. */
export type CapabilityProblemCode =
  | 'CAP_NO_PIN'
  | 'CAP_UNKNOWN_COMMAND'
  | 'CAP_REFUSAL_CODE'
  | 'CAP_UNSTOPPABLE'
  | 'CAP_UNKNOWN_OPERATION'
  | 'CAP_TIER_WITHOUT_COMMAND'
  | 'CAP_MODE_WITHOUT_COMMAND'
  | 'CAP_DECIDE_WITHOUT_SEAM'
  | 'CAP_TIER_WITHOUT_VECTOR'

/** One inconsistency: a code, where in the declaration, and a sentence. */
export interface CapabilityProblem {
  readonly code: CapabilityProblemCode
  readonly path: string
  readonly message: string
}

function honours(capabilities: Capabilities, command: string): boolean {
  return capabilities.commands[command] === 'honoured'
}

function controlCommands(vector: LoadedVector): string[] {
  return vector.kind === 'control' ? vector.inputs.commands.map((trigger) => trigger.send.command) : []
}

// Which vectors show a tier was driven: a launch shows registration; a control run in ask mode the
// call tier; a control run that stops the child the kill tier; one that talks mid-run the turn tier.
const TIER_EVIDENCE: Record<Tier, { readonly needs: string; readonly shows: (vector: LoadedVector) => boolean }> = {
  registration: { needs: 'a C1 launch vector', shows: (vector) => vector.tier === 'c1' },
  call: { needs: 'a C3 control vector in ask mode', shows: (vector) => vector.kind === 'control' && vector.inputs.decisions === 'ask' },
  kill: {
    needs: 'a C3 control vector that sends interrupt or halt',
    shows: (vector) => controlCommands(vector).some((command) => command === 'interrupt' || command === 'halt'),
  },
  turn: {
    needs: 'a C3 control vector that sends message.inject or steer',
    shows: (vector) => controlCommands(vector).some((command) => command === 'message.inject' || command === 'steer'),
  },
}

const TIER_COMMANDS: Partial<Record<Tier, readonly string[]>> = {
  call: ['tool.decide'],
  kill: ['interrupt', 'halt'],
  turn: ['message.inject', 'steer'],
}

/**
 * Checks an adapter's declaration against itself and, when given, its vectors: every listed
 * command is a real one and a refused command answers `UNSUPPORTED_CONTROL`; `interrupt` and
 * `halt` are honoured (a run that cannot be stopped should not start); a delivered tier or
 * decision mode has the command it needs and, for tiers, a vector that drove it; `tool.decide`
 * honoured means there is a control seam to answer through; every rendered operation is in the
 * vocabulary. Empty is consistent.
 */
export function checkCapabilities(
  adapter: Pick<HarnessAdapter, 'capabilities' | 'control'>,
  vectors?: readonly LoadedVector[],
): CapabilityProblem[] {
  const capabilities = adapter.capabilities()
  const problems: CapabilityProblem[] = []
  const add = (code: CapabilityProblemCode, path: string, message: string): void => {
    problems.push({ code, path, message })
  }
  if (capabilities.versions_pinned.length === 0) add('CAP_NO_PIN', 'versions_pinned', 'no version is pinned, so no claim names the binary it was read from')
  const known = new Set<string>(COMMAND_NAMES)
  for (const [name, support] of Object.entries(capabilities.commands)) {
    if (!known.has(name)) add('CAP_UNKNOWN_COMMAND', `commands.${name}`, `${name} is not a metaharness.command/1 command`)
    else if (support !== 'honoured' && support.refused !== 'UNSUPPORTED_CONTROL') {
      add('CAP_REFUSAL_CODE', `commands.${name}`, `a command the adapter cannot honour is refused with UNSUPPORTED_CONTROL, not ${support.refused}`)
    }
  }
  for (const name of ['interrupt', 'halt']) {
    if (!honours(capabilities, name)) add('CAP_UNSTOPPABLE', `commands.${name}`, `every adapter must honour ${name}: a run that cannot be stopped is not one to start`)
  }
  for (const operation of Object.keys(capabilities.rendering)) {
    if (!(OPERATIONS as readonly string[]).includes(operation)) {
      add('CAP_UNKNOWN_OPERATION', `rendering.${operation}`, `${operation} is not an operation of the vocabulary (${OPERATIONS.join(', ')})`)
    }
  }
  for (const tier of TIERS) {
    if (capabilities.tiers[tier] !== 'delivered') continue
    const commands = TIER_COMMANDS[tier]
    if (commands && !commands.some((command) => honours(capabilities, command))) {
      add('CAP_TIER_WITHOUT_COMMAND', `tiers.${tier}`, `the ${tier} tier is delivered, and the adapter honours none of ${commands.join(', ')}`)
    }
    if (vectors && !vectors.some(TIER_EVIDENCE[tier].shows)) {
      add('CAP_TIER_WITHOUT_VECTOR', `tiers.${tier}`, `the ${tier} tier is declared delivered, and no vector drives it: it needs ${TIER_EVIDENCE[tier].needs}, or the status is unverified`)
    }
  }
  for (const mode of ['ask', 'frame'] as const) {
    if (capabilities.decision_modes[mode] === 'delivered' && !honours(capabilities, 'tool.decide')) {
      add('CAP_MODE_WITHOUT_COMMAND', `decision_modes.${mode}`, `${mode} mode is delivered, and tool.decide is not honoured: the decision has no way to reach the child`)
    }
  }
  if (honours(capabilities, 'tool.decide') && !adapter.control) {
    add('CAP_DECIDE_WITHOUT_SEAM', 'commands.tool.decide', 'tool.decide is honoured, and the adapter has no control seam to write a decision through')
  }
  return problems
}

function sortedEntries<V>(record: Readonly<Record<string, V>>): [string, V][] {
  return Object.entries(record).sort(([a], [b]) => compareCodePoints(a, b))
}

/** The declaration in upstream's serialization order: tiers in tier order, every other map sorted. */
export function orderedCapabilities(capabilities: Capabilities): Capabilities {
  return {
    adapter: { id: capabilities.adapter.id, class: capabilities.adapter.class },
    versions_pinned: [...capabilities.versions_pinned],
    tiers: Object.fromEntries(TIERS.filter((tier) => tier in capabilities.tiers).map((tier) => [tier, capabilities.tiers[tier]])) as Capabilities['tiers'],
    commands: Object.fromEntries(sortedEntries(capabilities.commands)),
    decision_modes: Object.fromEntries(sortedEntries(capabilities.decision_modes)) as Capabilities['decision_modes'],
    rendering: Object.fromEntries(sortedEntries(capabilities.rendering)),
  }
}

/** `capabilities <adapter>`: the declaration as pretty JSON (serde's `to_string_pretty`), one trailing newline. */
export function renderCapabilities(capabilities: Capabilities): string {
  return `${JSON.stringify(orderedCapabilities(capabilities), null, 2)}\n`
}

/** `capabilities <adapter> --render`: `{op:<16} -> {tool}`, or `-> (no vendor tool)` where none renders it. */
export function renderRendering(capabilities: Capabilities): string {
  return escapeForTerminal(
    sortedEntries(capabilities.rendering)
      .map(([operation, tool]) => `${operation.padEnd(16)} -> ${tool ?? '(no vendor tool)'}\n`)
      .join(''),
  )
}
