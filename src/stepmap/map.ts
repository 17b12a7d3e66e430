import { z } from 'zod'
import { parseEvidenceKind, EVIDENCE_KINDS } from '../evidence/intake-kinds.js'
import { identifierProblem } from '../evidence/intake-values.js'
import { suiteNameProblem } from '../evidence/test-result.js'
import { isNamedVerifier } from '../evidence/verifiers.js'
import { StepMapError, type StepMapDiagnostic } from './diagnostics.js'
import { readWorkflowRef, type WorkflowPin } from './pin.js'
import { PLACEHOLDERS, placeholdersIn } from './placeholders.js'
import { INPUT_LIMITS, readBoundedText } from '../util/read-input.js'
import {
  DEFAULT_COMMAND_RETRIES,
  DEFAULT_HARNESS,
  DEFAULT_VISIT_BUDGET,
  MINTABLE,
  STEP_MAP_FORMAT,
  type CommandStep,
  type EvidenceMapping,
  type LlmStep,
  type ScopeRule,
  type StateSteps,
  type Step,
  type StepMap,
} from './types.js'
import { readYamlValue } from './yaml.js'
import { renderPath, zodDiagnostics } from './zod-diagnostics.js'

const U32 = z.number().int().min(0).max(2 ** 32 - 1)
const text = z.string()
const optionalText = text.nullish()

// The raw shapes, `deny_unknown_fields` as upstream's `Raw*` types: a key nobody declared is refused.
const rawMapSchema = z.strictObject({
  format: text,
  id: text,
  workflow: text,
  title: optionalText,
  states: z.record(text, z.unknown()).nullish(),
})
const rawStateSchema = z.strictObject({ visit_budget: U32.nullish(), steps: z.array(z.unknown()).nullish() })
const rawMappingSchema = z.strictObject({ kind: text, verifier: text, suite: optionalText, subject: optionalText, tool: optionalText, record: optionalText })
const rawScopeRuleSchema = z.strictObject({ paths: z.array(text), write: z.enum(['allowed', 'partial-only', 'denied']) })
const rawStepSchemas = {
  command: z.strictObject({
    kind: z.literal('command'),
    run: z.array(text),
    description: optionalText,
    evidence: z.unknown().optional(),
    retries: U32.nullish(),
    depends_on: optionalText,
    circuit_breaker: U32.nullish(),
  }),
  // No `evidence` key, and none can be added: a model's statement is never evidence.
  llm: z.strictObject({
    kind: z.literal('llm'),
    prompt: text,
    context: z.array(text).nullish(),
    scope: z.array(z.unknown()).nullish(),
    skills: z.array(text).nullish(),
    harness: optionalText,
    description: optionalText,
  }),
  operator: z.strictObject({ kind: z.literal('operator'), prompt: text, description: optionalText }),
} as const
type StepKindName = keyof typeof rawStepSchemas

const KEYS = {
  map: Object.keys(rawMapSchema.shape),
  state: Object.keys(rawStateSchema.shape),
  mapping: Object.keys(rawMappingSchema.shape),
  scopeRule: Object.keys(rawScopeRuleSchema.shape),
}

/** Why `id` is not a step map id (`StepMapId::new`): kebab segments joined by `.` or `/`, not ending numeric. */
export function stepMapIdProblem(id: string): string | undefined {
  return identifierProblem(id, 'dotted', 'step map id')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Validates one document; accumulates every refusal rather than stopping at the first. */
class MapValidator {
  readonly diagnostics: StepMapDiagnostic[] = []
  private prefix = 'driver-steps'

  push(code: StepMapDiagnostic['code'], location: string, message: string, hint?: string): void {
    this.diagnostics.push(hint === undefined ? { code, location, message } : { code, location, message, hint })
  }

  validate(raw: unknown): StepMap | undefined {
    if (!isRecord(raw)) {
      this.push('invalid_value', 'driver-steps', 'a step map is a mapping with `format`, `id`, `workflow` and `states`')
      return undefined
    }
    const id = typeof raw['id'] === 'string' ? raw['id'] : undefined
    const idProblem = id === undefined ? undefined : stepMapIdProblem(id)
    if (id !== undefined && !idProblem) this.prefix = `driver-steps[${id}]`
    const top = rawMapSchema.safeParse(raw)
    if (!top.success) {
      // Unrecognized top-level keys and type errors; the three identity keys are located as upstream does.
      const at = (path: readonly PropertyKey[]): string => (['format', 'id', 'workflow'].includes(String(path[0])) ? `driver-steps${renderPath(path)}` : `${this.prefix}${renderPath(path)}`)
      this.diagnostics.push(...zodDiagnostics(top.error, raw, at, (path) => (path.length === 0 ? KEYS.map : [])))
    }
    if (id !== undefined && idProblem) this.push('invalid_value', 'driver-steps.id', idProblem)

    const format = raw['format']
    if (typeof format === 'string' && format !== STEP_MAP_FORMAT) {
      this.push(
        'unsupported_format_version',
        'driver-steps.format',
        `this build reads \`${STEP_MAP_FORMAT}\`, and the document is written in \`${format}\``,
        'a step map from a newer driver may name step kinds this one cannot run, and running the rest would be a run that silently skipped them',
      )
    }
    const pin = typeof raw['workflow'] === 'string' ? this.pin(raw['workflow']) : undefined

    const states = isRecord(raw['states']) ? raw['states'] : raw['states'] === undefined || raw['states'] === null ? {} : undefined
    const validated: Record<string, StateSteps> = {}
    if (states && Object.keys(states).length === 0) {
      this.push('empty_declaration', `${this.prefix}.states`, 'a step map with no states tells a driver nothing about how to run anything')
    }
    for (const [state, entry] of Object.entries(states ?? {})) {
      const steps = this.state(state, entry)
      if (steps) validated[state] = steps
    }
    if (!top.success || !pin || id === undefined || idProblem || this.diagnostics.length > 0) return undefined
    const title = top.data.title ?? undefined
    return { format: STEP_MAP_FORMAT, id, workflow: pin, ...(title === undefined ? {} : { title }), states: validated }
  }

  private pin(written: string): WorkflowPin | undefined {
    const reading = readWorkflowRef(written)
    if ('problem' in reading) {
      this.push('invalid_value', 'driver-steps.workflow', `\`${written}\` is not a workflow reference: ${reading.problem}`)
      return undefined
    }
    if (reading.major === undefined) {
      this.push(
        'missing_declaration',
        'driver-steps.workflow',
        `\`${written}\` does not pin a major version, and a step map is written against a specific one`,
        `write \`${reading.id}/1\`, naming the major version this map's states and step order were written against`,
      )
      return undefined
    }
    return { id: reading.id, major: reading.major }
  }

  private state(state: string, entry: unknown): StateSteps | undefined {
    const location = `${this.prefix}.states.${state}`
    const at = (path: readonly PropertyKey[]): string => `${location}${renderPath(path)}`
    const parsed = rawStateSchema.safeParse(entry ?? {})
    if (!parsed.success) {
      this.diagnostics.push(...zodDiagnostics(parsed.error, entry, at, (path) => (path.length === 0 ? KEYS.state : [])))
      return undefined
    }
    if (parsed.data.visit_budget === 0) {
      this.push('empty_declaration', `${location}.visit_budget`, 'a visit budget of zero forbids entering a state the workflow can reach')
    }
    const steps: Step[] = []
    let precededByLlm = false
    let usable = true
    for (const [index, rawStep] of (parsed.data.steps ?? []).entries()) {
      const stepLocation = `${location}.steps[${index}]`
      const step = this.step(rawStep, stepLocation)
      if (!step) {
        usable = false
        // A refused llm step still precedes what follows it; only its own refusal is reported.
        if (isRecord(rawStep) && rawStep['kind'] === 'llm') precededByLlm = true
        continue
      }
      if (step.kind === 'llm') precededByLlm = true
      if (step.kind === 'command' && !precededByLlm && expandable(step).some((word) => placeholdersIn(word).includes('transcript'))) {
        this.push(
          'missing_declaration',
          `${stepLocation}.run`,
          `\`{transcript}\` is the transcript of the \`llm\` step this one follows, and no step of \`${state}\` before it is one`,
          'put the step after the `llm` step whose transcript it reads, in the same state: a transcript from another state belongs to another session and another prompt',
        )
        usable = false
      }
      steps.push(step)
    }
    if (!usable) return undefined
    return { visitBudget: parsed.data.visit_budget ?? DEFAULT_VISIT_BUDGET, steps }
  }

  private step(raw: unknown, location: string): Step | undefined {
    const at = (path: readonly PropertyKey[]): string => `${location}${renderPath(path)}`
    if (!isRecord(raw)) {
      this.push('invalid_value', location, 'a step is a mapping tagged by `kind` (command, llm or operator)')
      return undefined
    }
    const kind = raw['kind']
    if (kind === undefined) {
      this.push('missing_field', `${location}.kind`, 'missing field `kind`: a step is a `command`, an `llm` or an `operator` step')
      return undefined
    }
    if (typeof kind !== 'string' || !(kind in rawStepSchemas)) {
      this.push('invalid_value', `${location}.kind`, `unknown step kind ${JSON.stringify(kind)}, expected one of \`command\`, \`llm\`, \`operator\``)
      return undefined
    }
    const schema = rawStepSchemas[kind as StepKindName]
    const parsed = schema.safeParse(raw)
    if (!parsed.success) {
      for (const diagnostic of zodDiagnostics(parsed.error, raw, at, (path) => (path.length === 0 ? Object.keys(schema.shape) : []))) {
        // The one unknown field with a reason of its own.
        if (kind === 'llm' && diagnostic.code === 'unknown_field' && diagnostic.location === `${location}.evidence`) {
          this.push(
            'unknown_field',
            diagnostic.location,
            'unknown field `evidence`: an `llm` step cannot carry evidence, because a model\'s statement never satisfies an independence requirement',
            'observe what the step was meant to achieve with a `command` step after it, in the same state',
          )
        } else this.diagnostics.push(diagnostic)
      }
      return undefined
    }
    const data = parsed.data
    if (data.kind === 'command') return this.command(data, location)
    if (data.kind === 'llm') return this.llm(data, location)
    if (data.prompt.trim().length === 0) {
      this.push('empty_declaration', `${location}.prompt`, 'an operator step with an empty prompt tells a person nothing')
      return undefined
    }
    return { kind: 'operator', prompt: data.prompt, ...optionalField('description', data.description) }
  }

  private command(data: z.output<(typeof rawStepSchemas)['command']>, location: string): CommandStep | undefined {
    let usable = true
    if (data.run.length === 0 || data.run.every((word) => word.trim().length === 0)) {
      this.push('empty_declaration', `${location}.run`, 'a command step with nothing to run cannot observe anything')
      usable = false
    }
    const dependsOn = data.depends_on ?? undefined
    const breaker = data.circuit_breaker ?? undefined
    if (breaker !== undefined && dependsOn === undefined) {
      this.push('empty_declaration', `${location}.circuit_breaker`, 'a circuit breaker is keyed by `depends_on`, and this step names no dependency; say which outside thing keeps failing')
      usable = false
    }
    if (breaker === 0) {
      this.push('empty_declaration', `${location}.circuit_breaker`, 'a circuit breaker of 0 opens before anything is attempted; that is a step that never runs, so delete the step or raise the threshold')
      usable = false
    }
    if (dependsOn !== undefined && dependsOn.trim().length === 0) {
      this.push('empty_declaration', `${location}.depends_on`, 'a dependency with no name cannot be shared with the other steps that need it')
      usable = false
    }
    let evidence: EvidenceMapping | undefined
    if (data.evidence !== undefined && data.evidence !== null) {
      evidence = this.mapping(data.evidence, location)
      if (!evidence) usable = false
    }
    const step: CommandStep = {
      kind: 'command',
      run: data.run,
      ...optionalField('description', data.description),
      ...(evidence ? { evidence } : {}),
      retries: data.retries ?? DEFAULT_COMMAND_RETRIES,
      ...(dependsOn === undefined ? {} : { dependsOn }),
      ...(breaker === undefined ? {} : { circuitBreaker: breaker }),
    }
    const words = [...data.run, ...(isRecord(data.evidence) && typeof data.evidence['record'] === 'string' ? [data.evidence['record']] : [])]
    for (const word of words) {
      for (const name of placeholdersIn(word)) {
        if ((PLACEHOLDERS as readonly string[]).includes(name)) continue
        this.push('undeclared_reference', `${location}.run`, `nothing in a run expands \`{${name}}\``, `a step may name: ${PLACEHOLDERS.map((known) => `{${known}}`).join(', ')}`)
        usable = false
      }
    }
    return usable ? step : undefined
  }

  private mapping(raw: unknown, stepLocation: string): EvidenceMapping | undefined {
    const location = `${stepLocation}.evidence`
    const parsed = rawMappingSchema.safeParse(raw)
    if (!parsed.success) {
      this.diagnostics.push(...zodDiagnostics(parsed.error, raw, (path) => `${location}${renderPath(path)}`, (path) => (path.length === 0 ? KEYS.mapping : [])))
      return undefined
    }
    const data = parsed.data
    let usable = true
    const kind = parseEvidenceKind(data.kind)
    if (!kind) {
      this.push('invalid_value', `${location}.kind`, `unknown evidence kind ${JSON.stringify(data.kind)}, expected one of ${EVIDENCE_KINDS.join(', ')}`)
      usable = false
    }
    if (!isNamedVerifier(data.verifier)) {
      const problem = identifierProblem(data.verifier, 'dotted', 'verifier')
      if (problem) {
        this.push('invalid_value', `${location}.verifier`, problem)
        usable = false
      }
    }
    const suite = data.suite ?? undefined
    if (suite !== undefined) {
      const problem = suiteNameProblem(suite)
      if (problem) {
        this.push('invalid_value', `${location}.suite`, `invalid test suite ${JSON.stringify(suite)}: ${problem}`)
        usable = false
      }
    }
    const tool = data.tool ?? undefined
    if (tool !== undefined) {
      const problem = identifierProblem(tool, 'dotted', 'tool')
      if (problem) {
        this.push('invalid_value', `${location}.tool`, problem)
        usable = false
      }
    }
    let record = data.record ?? undefined
    if (record !== undefined && record.trim().length === 0) {
      this.push('empty_declaration', `${location}.record`, 'a record path with nothing in it names no document for the driver to read')
      usable = false
      record = undefined
    }
    const written = record !== undefined
    if (kind && !written && !MINTABLE.includes(kind)) {
      this.push(
        'unsupported_construct',
        `${location}.kind`,
        `a driver reads an exit status, which cannot establish \`${kind}\``,
        `a command step can mint: ${MINTABLE.join(', ')}. A verifier that writes the record itself declares \`record:\` beside \`kind:\`, and then the driver reads the document instead of minting anything`,
      )
      usable = false
    }
    if (kind === 'test_result' && !written && suite === undefined) {
      this.push('missing_declaration', `${location}.suite`, 'a test result names the suite that ran, and nothing in an exit status says which', 'write `suite: unit`, `suite: contract` or another declared suite')
      usable = false
    }
    if (!usable || !kind) return undefined
    return {
      kind,
      verifier: data.verifier,
      ...(suite === undefined ? {} : { suite }),
      ...optionalField('subject', data.subject),
      ...(tool === undefined ? {} : { tool }),
      ...(record === undefined ? {} : { record }),
    }
  }

  private llm(data: z.output<(typeof rawStepSchemas)['llm']>, location: string): LlmStep | undefined {
    if (data.prompt.trim().length === 0) {
      this.push('empty_declaration', `${location}.prompt`, 'an llm step with an empty prompt asks for nothing')
      return undefined
    }
    const context: string[] = []
    for (const entry of data.context ?? []) {
      const trimmed = entry.trim()
      if (trimmed.length === 0) {
        this.push('empty_declaration', `${location}.context`, 'a blank context entry names no file')
      } else if (trimmed.includes('*') || trimmed.includes('?')) {
        this.push('empty_declaration', `${location}.context`, `\`${trimmed}\` is a glob, and context is a list of files: a step map is pinned, so a glob is a promise about what a directory will hold later. Name the files.`)
      } else context.push(trimmed)
    }
    const scope = this.scope(data.scope ?? [], location)
    if (!scope) return undefined
    return {
      kind: 'llm',
      prompt: data.prompt,
      context,
      scope,
      skills: data.skills ?? [],
      harness: data.harness ?? DEFAULT_HARNESS,
      ...optionalField('description', data.description),
    }
  }

  private scope(raw: readonly unknown[], location: string): ScopeRule[] | undefined {
    const rules: ScopeRule[] = []
    let usable = true
    for (const [index, entry] of raw.entries()) {
      const parsed = rawScopeRuleSchema.safeParse(entry)
      if (!parsed.success) {
        this.diagnostics.push(...zodDiagnostics(parsed.error, entry, (path) => `${location}.scope[${index}]${renderPath(path)}`, (path) => (path.length === 0 ? KEYS.scopeRule : [])))
        usable = false
        continue
      }
      if (parsed.data.paths.length === 0 || parsed.data.paths.some((path) => path.trim().length === 0)) {
        this.push('empty_declaration', `${location}.scope`, 'a scope rule with no paths is about nothing')
        usable = false
        continue
      }
      rules.push({ paths: parsed.data.paths.map((path) => path.trim()), write: parsed.data.write })
    }
    if (usable && rules.length > 0 && !(rules[rules.length - 1] as ScopeRule).paths.includes('**')) {
      this.push(
        'empty_declaration',
        `${location}.scope`,
        'the last scope rule must name `**`, so every path has an answer. A scope whose tail is silent leaves whatever nobody thought of to a default, which is how one stops covering the tree it was written for.',
      )
      usable = false
    }
    return usable ? rules : undefined
  }
}

function optionalField<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value === null || value === undefined ? {} : ({ [key]: value } as Record<K, string>)
}

/** Every word of a command step a placeholder may appear in: its argv and its `record:` path. */
export function expandable(step: CommandStep): string[] {
  return [...step.run, ...(step.evidence?.record === undefined ? [] : [step.evidence.record])]
}

export interface StepMapReading {
  /** Present only when nothing was refused. */
  readonly map?: StepMap
  readonly diagnostics: readonly StepMapDiagnostic[]
}

/**
 * Reads and validates an `aep.driver-steps/1` map (YAML or JSON) as upstream's loader does, every
 * key, default and refusal; all refusals are reported, each with its location. `source` names the
 * document in YAML-level locations.
 */
export function readStepMap(text: string, options: { source?: string } = {}): StepMapReading {
  const yaml = readYamlValue(text, options.source ?? 'driver-steps')
  if (yaml.diagnostics.length > 0) return { diagnostics: yaml.diagnostics }
  const validator = new MapValidator()
  const map = validator.validate(yaml.value)
  return map ? { map, diagnostics: [] } : { diagnostics: validator.diagnostics }
}

/** {@link readStepMap}, throwing a {@link StepMapError} carrying every refusal. */
export function readStepMapOrThrow(text: string, options: { source?: string } = {}): StepMap {
  const reading = readStepMap(text, options)
  if (!reading.map) throw new StepMapError(`${options.source ?? 'the document'} is not an aep.driver-steps/1 step map`, reading.diagnostics)
  return reading.map
}

/** Reads a step map file; throws a {@link StepMapError} when it is refused. */
export function loadStepMap(path: string): StepMap {
  return readStepMapOrThrow(readBoundedText(path, { maxBytes: INPUT_LIMITS.stepMap, what: 'step map' }), { source: path })
}
