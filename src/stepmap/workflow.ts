import { z } from 'zod'
import { identifierProblem } from '../evidence/intake-values.js'
import { StepMapError, type StepMapDiagnostic } from './diagnostics.js'
import { readYamlValue } from './yaml.js'
import { renderPath, zodDiagnostics } from './zod-diagnostics.js'
import { INPUT_LIMITS, readBoundedText } from '../util/read-input.js'

const optionalText = z.string().nullish()

// Enough of AEP's workflow document to cross-check a map against it and to project it; guards and
// requirements are carried as written and never evaluated here — that is the engine's business.
const stateSchema = z.strictObject({
  title: z.string(),
  summary: optionalText,
  phases: z.array(z.string()).nullish(),
  requires: z.unknown().optional(),
  capabilities: z.unknown().optional(),
  terminal: z.boolean().nullish(),
  irreversible: z.boolean().nullish(),
  on_failure: z.unknown().optional(),
})
const transitionSchema = z.strictObject({
  from: z.string(),
  to: z.string(),
  description: optionalText,
  when: z.unknown().optional(),
  requires: z.unknown().optional(),
  on_failure: z.unknown().optional(),
})
const workflowSchema = z.strictObject({
  id: z.string(),
  version: z.number().int().min(1).max(2 ** 32 - 1),
  title: z.string(),
  summary: optionalText,
  initial: z.string(),
  states: z.record(z.string(), stateSchema),
  transitions: z.array(transitionSchema),
  allow_unreachable_states: z.boolean().nullish(),
})

export interface WorkflowState {
  readonly id: string
  readonly title: string
  readonly summary?: string
  readonly phases: readonly string[]
  readonly terminal: boolean
  /** As written: AEP's capability grants for the state. */
  readonly capabilities?: unknown
}

export interface WorkflowTransition {
  readonly from: string
  readonly to: string
  readonly description?: string
  /** The guard as written; absent means always. */
  readonly when?: unknown
}

/** An AEP workflow document (`workflows/development/default.yaml`): a state graph with guards. */
export interface Workflow {
  readonly id: string
  readonly version: number
  readonly title: string
  readonly summary?: string
  readonly initial: string
  /** By id, in document order. */
  readonly states: Readonly<Record<string, WorkflowState>>
  /** Document order, which is the order the engine tries them in. */
  readonly transitions: readonly WorkflowTransition[]
}

export interface WorkflowReading {
  readonly workflow?: Workflow
  readonly diagnostics: readonly StepMapDiagnostic[]
}

/**
 * Reads an AEP workflow document (YAML or JSON): its id, version, states and transitions, refusing
 * unknown keys and a transition or an initial state naming a state it does not declare.
 */
export function readWorkflow(text: string, options: { source?: string } = {}): WorkflowReading {
  const yaml = readYamlValue(text, options.source ?? 'workflow')
  if (yaml.diagnostics.length > 0) return { diagnostics: yaml.diagnostics }
  const parsed = workflowSchema.safeParse(yaml.value)
  if (!parsed.success) return { diagnostics: zodDiagnostics(parsed.error, yaml.value, (path) => `workflow${renderPath(path)}`) }
  const raw = parsed.data
  const diagnostics: StepMapDiagnostic[] = []
  const idProblem = identifierProblem(raw.id, 'dotted', 'workflow id')
  if (idProblem) diagnostics.push({ code: 'invalid_value', location: 'workflow.id', message: idProblem })
  const known = Object.keys(raw.states)
  const unknown = (location: string, state: string): void => {
    diagnostics.push({ code: 'unknown_state', location, message: `\`${state}\` is not a declared state`, hint: `the workflow declares: ${known.join(', ')}` })
  }
  if (!(raw.initial in raw.states)) unknown('workflow.initial', raw.initial)
  raw.transitions.forEach((transition, index) => {
    if (!(transition.from in raw.states)) unknown(`workflow.transitions[${index}].from`, transition.from)
    if (!(transition.to in raw.states)) unknown(`workflow.transitions[${index}].to`, transition.to)
  })
  if (diagnostics.length > 0) return { diagnostics }
  const states: Record<string, WorkflowState> = {}
  for (const [id, state] of Object.entries(raw.states)) {
    states[id] = {
      id,
      title: state.title,
      ...(state.summary ? { summary: state.summary } : {}),
      phases: state.phases ?? [],
      terminal: state.terminal === true,
      ...(state.capabilities === undefined ? {} : { capabilities: state.capabilities }),
    }
  }
  const transitions = raw.transitions.map((transition) => ({
    from: transition.from,
    to: transition.to,
    ...(transition.description ? { description: transition.description } : {}),
    ...(transition.when === undefined || transition.when === null ? {} : { when: transition.when }),
  }))
  return {
    workflow: { id: raw.id, version: raw.version, title: raw.title, ...(raw.summary ? { summary: raw.summary } : {}), initial: raw.initial, states, transitions },
    diagnostics: [],
  }
}

/** {@link readWorkflow}, throwing a {@link StepMapError} carrying every refusal. */
export function readWorkflowOrThrow(text: string, options: { source?: string } = {}): Workflow {
  const reading = readWorkflow(text, options)
  if (!reading.workflow) throw new StepMapError(`${options.source ?? 'the document'} is not a workflow`, reading.diagnostics)
  return reading.workflow
}

/** Reads a workflow file; throws a {@link StepMapError} when it is refused. */
export function loadWorkflow(path: string): Workflow {
  return readWorkflowOrThrow(readBoundedText(path, { maxBytes: INPUT_LIMITS.workflow, what: 'workflow' }), { source: path })
}
