import type { EvidenceKindName } from '../evidence/intake-kinds.js'
import type { WorkflowPin } from './pin.js'

/** How much of a file a scope rule lets a step change. */
export type WriteScope = 'allowed' | 'partial-only' | 'denied'

/** One rule of an llm step's write scope: first match wins, and the last names `**`. */
export interface ScopeRule {
  readonly paths: readonly string[]
  readonly write: WriteScope
}

/** How a command step's result becomes evidence. */
export interface EvidenceMapping {
  readonly kind: EvidenceKindName
  /** A named verifier class, or an external tool (`git`, `protocol`). */
  readonly verifier: string
  readonly suite?: string
  readonly subject?: string
  readonly tool?: string
  /** Where the verifier writes its own record; placeholders allowed. Without it, the exit status mints. */
  readonly record?: string
}

export interface CommandStep {
  readonly kind: 'command'
  /** The argv, never empty; placeholders allowed. */
  readonly run: readonly string[]
  readonly description?: string
  readonly evidence?: EvidenceMapping
  /** Retries for a process that produced no verdict. Default: 2. */
  readonly retries: number
  readonly dependsOn?: string
  readonly circuitBreaker?: number
}

export interface LlmStep {
  readonly kind: 'llm'
  readonly prompt: string
  /** Files given to the run, never globs. */
  readonly context: readonly string[]
  /** Empty: nothing is enforced and nothing claims to be. */
  readonly scope: readonly ScopeRule[]
  readonly skills: readonly string[]
  /** Which harness runs it. Default: `claude-code`. */
  readonly harness: string
  readonly description?: string
}

export interface OperatorStep {
  readonly kind: 'operator'
  readonly prompt: string
  readonly description?: string
}

export type Step = CommandStep | LlmStep | OperatorStep

export interface StateSteps {
  /** How many times the state may be entered. Default: 3. */
  readonly visitBudget: number
  /** In the order the author wrote them. */
  readonly steps: readonly Step[]
}

/** A validated `aep.driver-steps/1` map: possessing one means its format, pin and steps were checked. */
export interface StepMap {
  readonly format: 'aep.driver-steps/1'
  readonly id: string
  readonly workflow: WorkflowPin
  readonly title?: string
  /** By state, in the order the document lists them (the workflow's order governs a run). */
  readonly states: Readonly<Record<string, StateSteps>>
}

/** The retry budget of a step: its `retries` for a command, once for an llm step, never for a person. */
export function retryBudget(step: Step): number {
  switch (step.kind) {
    case 'command':
      return step.retries
    case 'llm':
      return LLM_RETRIES
    case 'operator':
      return 0
  }
}

/** One line naming a step, for a test name or a report. */
export function stepLabel(step: Step): string {
  if (step.description) return step.description
  return step.kind === 'command' ? step.run.join(' ') : step.prompt
}

export const STEP_MAP_FORMAT = 'aep.driver-steps/1'
export const DEFAULT_VISIT_BUDGET = 3
export const DEFAULT_COMMAND_RETRIES = 2
export const LLM_RETRIES = 1
export const DEFAULT_HARNESS = 'claude-code'
/** The kinds a command step can mint from an exit status, without `record:`. */
export const MINTABLE: readonly EvidenceKindName[] = ['test_result', 'static_analysis', 'contract_result', 'diff']
