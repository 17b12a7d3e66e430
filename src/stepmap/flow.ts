import { compareCodePoints } from '../events/json.js'
import { StepMapError } from './diagnostics.js'
import { crossValidate } from './cross-validate.js'
import { isBackEdge, layoutWorkflow, type Layout } from './layout.js'
import { renderPin } from './pin.js'
import type { ScopeRule, Step, StepMap } from './types.js'
import type { Workflow } from './workflow.js'

export interface ProjectFlowOptions {
  /**
   * How many attempts a retreating group may take: the workflow bounds a retreat with the engine's
   * iteration budget, which is not in the document. Default: 3.
   */
  readonly maxAttempts?: number
}

interface Run {
  readonly state: string
  /** The state's summary on a node that is the whole of its state's work; empty otherwise. */
  readonly summary: string
  readonly step?: Step
}

type Emitted =
  | { readonly type: 'step'; readonly id: string; readonly needs: readonly string[]; readonly run: Run }
  | { readonly type: 'group'; readonly id: string; readonly needs: readonly string[]; readonly repeat?: number; readonly comment?: string; readonly nodes: readonly Emitted[] }

type Span = [start: number, end: number, why: string[]]

function summaryOf(workflow: Workflow, state: string): string {
  return (workflow.states[state]?.summary ?? '').split(/\s+/).filter((word) => word.length > 0).join(' ')
}

/** Overlapping or touching retreat spans become one, carrying every edge that made them. */
function merge(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const merged: Span[] = []
  for (const [start, end, why] of sorted) {
    const last = merged[merged.length - 1]
    if (last && start <= last[1] + 1) {
      last[1] = Math.max(last[1], end)
      last[2].push(...why)
    } else merged.push([start, end, [...why]])
  }
  return merged
}

function groupName(states: readonly string[]): string {
  const first = states[0]
  const last = states[states.length - 1]
  if (first === undefined || last === undefined) return 'retreat'
  return first === last ? `${first}-again` : `${first}-to-${last}`
}

/** One state, as the section it is: a group named for it, holding its steps (one node when it has one or none). */
function nodeFor(workflow: Workflow, map: StepMap | undefined, state: string, needs: readonly string[]): Emitted {
  const summary = summaryOf(workflow, state)
  const mapped = map?.states[state]?.steps ?? []
  const steps: (Step | undefined)[] = mapped.length === 0 ? [undefined] : [...mapped]
  const alone = steps.length === 1
  return {
    type: 'group',
    id: state,
    needs,
    ...(!alone && summary.length > 0 ? { comment: summary } : {}),
    nodes: steps.map((step, offset) => ({
      type: 'step' as const,
      id: `${state}-${offset + 1}`,
      needs: offset === 0 ? [] : [`${state}-${offset}`],
      run: { state, summary: alone ? summary : '', ...(step ? { step } : {}) },
    })),
  }
}

/** YAML-safe, nothing clever: the characters that would end the scalar early are escaped. */
function quote(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\r', '\\r').replaceAll('\n', '\\n').replaceAll('\t', '\\t')}"`
}

/** A scope in the grammar `--write-scope` has: `<glob>=<word>`, in the map's order, never sorted. */
function scopeWords(scope: readonly ScopeRule[]): string[] {
  return scope.flatMap((rule) => rule.paths.map((path) => `${path}=${rule.write}`))
}

function writeList(out: string[], indent: number, key: string, values: readonly string[]): void {
  if (values.length === 0) return
  out.push(`${' '.repeat(indent)}${key}:\n`)
  for (const value of values) out.push(`${' '.repeat(indent + 2)}- ${quote(value)}\n`)
}

function writeRun(out: string[], run: Run, indent: number): void {
  if (run.summary.length === 0 && !run.step) return
  const pad = ' '.repeat(indent)
  const key = ' '.repeat(indent + 2)
  out.push(`${pad}run:\n${key}state: ${run.state}\n`)
  if (run.summary.length > 0) out.push(`${key}summary: ${quote(run.summary)}\n`)
  const step = run.step
  if (!step) return
  out.push(`${key}kind: ${step.kind}\n`)
  const description = (): void => {
    if (step.description !== undefined) out.push(`${key}description: ${quote(step.description)}\n`)
  }
  switch (step.kind) {
    case 'llm':
      out.push(`${key}prompt: ${quote(step.prompt)}\n`)
      writeList(out, indent + 2, 'context', step.context)
      writeList(out, indent + 2, 'scope', scopeWords(step.scope))
      out.push(`${key}harness: ${quote(step.harness)}\n`)
      description()
      return
    case 'command': {
      out.push(`${key}command: [${step.run.map(quote).join(', ')}]\n`)
      if (step.evidence) {
        const inner = ' '.repeat(indent + 4)
        out.push(`${key}evidence:\n${inner}kind: ${step.evidence.kind}\n${inner}verifier: ${step.evidence.verifier}\n`)
        if (step.evidence.suite !== undefined) out.push(`${inner}suite: ${step.evidence.suite}\n`)
      }
      description()
      return
    }
    case 'operator':
      out.push(`${key}prompt: ${quote(step.prompt)}\n`)
      description()
      return
  }
}

function writeNode(out: string[], node: Emitted, indent: number): void {
  const pad = ' '.repeat(indent)
  if (node.type === 'group' && node.comment !== undefined) out.push(`${pad}# ${node.comment}\n`)
  out.push(`${pad}- id: ${node.id}\n`)
  if (node.needs.length > 0) out.push(`${pad}  needs: [${node.needs.join(', ')}]\n`)
  if (node.type === 'step') {
    writeRun(out, node.run, indent + 2)
    return
  }
  if (node.repeat !== undefined) out.push(`${pad}  repeat: {max: ${node.repeat}}\n`)
  out.push(`${pad}  nodes:\n`)
  for (const inner of node.nodes) writeNode(out, inner, indent + 4)
}

function render(workflow: Workflow, nodes: readonly Emitted[], layout: Layout, map: StepMap | undefined): string {
  const ids = Object.keys(workflow.states).sort(compareCodePoints)
  const dropped = ids.filter((id) => workflow.states[id]?.terminal)
  const guards = workflow.transitions.filter((transition) => transition.when !== undefined).length
  const out: string[] = [
    `# Projected from \`${workflow.id}/${workflow.version}\` by \`aep govern workflow flow\`. Do not edit.
#
# **An ordering, not a government.** ${guards} guard(s) in the source decide whether a run
# may move; a flow node has no \`when\`, so none of them is here. What this document
# reproduces is the order the states run in and the routes back; what governs a run is the
# engine, which is not on this side of the translation.
#
# Dropped, because nothing runs in them: ${dropped.length === 0 ? 'none' : dropped.join(', ')}.
# Also dropped: any early exit. \`declined\` is an outcome the flow notation cannot express,
# so a run under this document always walks its whole plan.
#
# A retreat is a group that repeats, which is \`b10x-harness-flow\`'s own shape for one: a
# DAG has no back-edge, and every state a retreat spans is gathered into a sub-tree that
# re-runs whole. Its bound is a number given on the command line, because the source bounds
# a retreat with the engine's iteration budget and that is not in the document.
#
# Every state is a section: a group named for the state, holding its steps — one node when
# the map gave it one step or none. The loop asks its \`transition\` hook only at a group's
# boundaries, so this is what makes a governor's *every section* mean every state.
`,
    `#\n# ${ids.length} state(s) in ${layout.depth} layer(s) of the source; ${nodes.length} node(s) here.\n`,
  ]
  if (map) out.push(`# Steps from step map \`${map.id}\`, which is pinned to \`${renderPin(map.workflow)}\`.\n`)
  out.push(`id: ${workflow.id}\n`, 'root:\n  id: root\n  nodes:\n')
  for (const node of nodes) writeNode(out, node, 4)
  return out.join('')
}

/**
 * Projects a workflow into a `b10x-harness-flow` document, as `aep govern workflow flow` does: every
 * non-terminal state becomes a group named for it (its steps from `map` inside, chained in the
 * map's order), states in layer order; the stretch every back-edge spans becomes one group that
 * repeats (`implement-to-review`); terminal states, guards and early exits are dropped, and the
 * header says so. With a map, the map must apply to the workflow (throws {@link StepMapError}).
 *
 * @example
 * const flow = projectFlow(loadWorkflow('workflows/default.yaml'), loadStepMap('step-maps/default.yaml'))
 */
export function projectFlow(workflow: Workflow, map?: StepMap, options: ProjectFlowOptions = {}): string {
  if (map) {
    const refusals = crossValidate(map, workflow)
    if (refusals.length > 0) throw new StepMapError(`step map \`${map.id}\` does not apply to \`${workflow.id}/${workflow.version}\``, refusals)
  }
  const maxAttempts = options.maxAttempts ?? 3
  const layout = layoutWorkflow(workflow)
  const order = Object.keys(workflow.states)
    .filter((id) => !workflow.states[id]?.terminal)
    .sort((a, b) => (layout.layers.get(a) ?? Number.MAX_SAFE_INTEGER) - (layout.layers.get(b) ?? Number.MAX_SAFE_INTEGER) || compareCodePoints(a, b))
  if (order.length === 0) throw new StepMapError(`\`${workflow.id}\` has nothing to run`, [{ code: 'empty_declaration', location: 'workflow.states', message: 'every state the workflow declares is terminal' }])
  const position = new Map(order.map((id, index) => [id, index]))
  const spans: Span[] = []
  for (const transition of workflow.transitions) {
    const from = position.get(transition.from)
    const to = position.get(transition.to)
    if (from === undefined || to === undefined) continue
    if (to <= from && isBackEdge(layout, transition.from, transition.to)) spans.push([to, from, [`${transition.from} -> ${transition.to}`]])
  }
  const merged = merge(spans)
  const nodes: Emitted[] = []
  let previous: string | undefined
  for (let index = 0; index < order.length; ) {
    const span = merged.find(([start]) => start === index)
    if (span) {
      const [start, end, why] = span
      const inside = order.slice(start, end + 1)
      const id = groupName(inside)
      nodes.push({
        type: 'group',
        id,
        needs: previous === undefined ? [] : [previous],
        repeat: maxAttempts,
        comment: `the retreat: ${why.join(', ')}`,
        nodes: inside.map((state, offset) => nodeFor(workflow, map, state, offset === 0 ? [] : [inside[offset - 1] as string])),
      })
      previous = id
      index = end + 1
    } else {
      const state = order[index] as string
      nodes.push(nodeFor(workflow, map, state, previous === undefined ? [] : [previous]))
      previous = state
      index += 1
    }
  }
  return render(workflow, nodes, layout, map)
}
