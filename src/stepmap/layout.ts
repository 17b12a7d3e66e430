import { compareCodePoints } from '../events/json.js'
import type { Workflow } from './workflow.js'

/**
 * Which layer each state of a workflow sits in, as AEP's renderer lays it out
 * (`aep-render/src/layout.rs`): a depth-first walk from the initial state (successors in id order)
 * finds the edges that close a cycle; longest-path layering over the rest puts each state one layer
 * below its deepest predecessor. Every tie is broken by id, so the answer never depends on
 * iteration order.
 */
export interface Layout {
  readonly layers: ReadonlyMap<string, number>
  /** How many layers there are. */
  readonly depth: number
}

function sortedIds(workflow: Workflow): string[] {
  return Object.keys(workflow.states).sort(compareCodePoints)
}

function successorsOf(workflow: Workflow): Map<string, string[]> {
  const successors = new Map<string, Set<string>>(sortedIds(workflow).map((id) => [id, new Set<string>()]))
  for (const transition of workflow.transitions) successors.get(transition.from)?.add(transition.to)
  return new Map([...successors].map(([id, targets]) => [id, [...targets].sort(compareCodePoints)]))
}

function cycleClosingEdges(workflow: Workflow, successors: Map<string, string[]>): Set<string> {
  const closing = new Set<string>()
  const discovered = new Set<string>()
  const open = new Set<string>()
  for (const root of [workflow.initial, ...sortedIds(workflow)]) {
    if (discovered.has(root) || !(root in workflow.states)) continue
    discovered.add(root)
    open.add(root)
    const stack: [string, string[]][] = [[root, [...(successors.get(root) ?? [])].reverse()]]
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as [string, string[]]
      const target = top[1].pop()
      if (target === undefined) {
        open.delete(top[0])
        stack.pop()
        continue
      }
      if (open.has(target)) {
        closing.add(`${top[0]}\u0000${target}`)
        continue
      }
      if (discovered.has(target)) continue
      discovered.add(target)
      open.add(target)
      stack.push([target, [...(successors.get(target) ?? [])].reverse()])
    }
  }
  return closing
}

/** Lays a workflow out. */
export function layoutWorkflow(workflow: Workflow): Layout {
  const successors = successorsOf(workflow)
  const closing = cycleClosingEdges(workflow, successors)
  const forward = (from: string, to: string): boolean => !closing.has(`${from}\u0000${to}`)
  const incoming = new Map(sortedIds(workflow).map((id) => [id, 0]))
  for (const [from, targets] of successors) for (const to of targets) if (forward(from, to) && incoming.has(to)) incoming.set(to, (incoming.get(to) as number) + 1)
  const layers = new Map(sortedIds(workflow).map((id) => [id, 0]))
  const queue = [...incoming].filter(([, count]) => count === 0).map(([id]) => id)
  while (queue.length > 0) {
    const state = queue.shift() as string
    const here = layers.get(state) ?? 0
    for (const target of successors.get(state) ?? []) {
      if (!forward(state, target)) continue
      if (layers.has(target)) layers.set(target, Math.max(layers.get(target) as number, here + 1))
      const count = incoming.get(target)
      if (count !== undefined) {
        incoming.set(target, count - 1)
        if (count - 1 === 0) queue.push(target)
      }
    }
  }
  const depth = layers.size === 0 ? 0 : Math.max(...layers.values()) + 1
  return { layers, depth }
}

/** A transition that runs back up the page: its target's layer is at or above its source's. */
export function isBackEdge(layout: Layout, from: string, to: string): boolean {
  const source = layout.layers.get(from)
  const target = layout.layers.get(to)
  return source !== undefined && target !== undefined && target <= source
}
