import { mkdirSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { writeEvidenceDocument } from '../evidence/document.js'
import { checkRun, type ProtocolInForce } from './cross-validate.js'
import { StepMapError } from './diagnostics.js'
import { runLlmAttempt } from './llm.js'
import { loadStepMap } from './map.js'
import { mintFromExitStatus } from './mint.js'
import { expandPlaceholders, type PlaceholderValues } from './placeholders.js'
import type { HarnessOption, StepProvider } from './provider.js'
import { readRecord } from './read-record.js'
import { runCommand } from './run-command.js'
import { retryBudget, stepLabel, type CommandStep, type LlmStep, type Step, type StepMap } from './types.js'
import { loadWorkflow, type Workflow } from './workflow.js'

/** How a step map is run. */
export interface StepMapRunOptions {
  /** The workflow the map is pinned to: a document or its path. */
  readonly workflow: Workflow | string
  /** The task document the run drives; `{task}` expands to its absolute path. */
  readonly task?: string
  /** Where transcripts, `step-context.json` and minted evidence go; `{run_directory}`. */
  readonly runDirectory: string
  /** The working tree commands and harnesses run in. Default: the current directory. */
  readonly workspace?: string
  /** How a step's `harness:` is launched. Default: `claude-code` → `claude`, any other name → that launch id. */
  readonly harness?: HarnessOption
  /** The loopback provider each llm step runs against, one session (one cassette) per step. */
  readonly provider?: StepProvider
  /** The protocol in force for the run-start check. Default: `adp/1`. */
  readonly protocol?: ProtocolInForce
  /** The visits to run, in order; a state named twice is entered twice. Default: the workflow's states, in document order. */
  readonly states?: readonly string[]
  /** Variables added to a command step's constructed environment (`PATH`, `HOME`, `TMPDIR`, `LANG` come from this process). */
  readonly env?: Readonly<Record<string, string>>
  /** Milliseconds before a command step's process group is stopped. Default: 600000. */
  readonly commandTimeoutMs?: number
  /** Milliseconds before an llm step's harness is stopped. Default: 300000. */
  readonly harnessTimeoutMs?: number
  /** The capabilities a state admits, for `step-context.json`. Default: none. */
  readonly capabilities?: (state: string) => readonly string[]
  /** The requirement lines a state is trying to reach, for `step-context.json`. Default: none. */
  readonly reaching?: (state: string) => readonly string[]
  /** The clock evidence is dated by, epoch milliseconds. Default: `Date.now`. */
  readonly clock?: () => number
}

/** One entry into a state. */
export interface StateVisit {
  readonly state: string
  /** Counting from 1. */
  readonly visit: number
  readonly steps: readonly Step[]
  /** Set when this entry is beyond the state's visit budget. */
  readonly overBudget?: { readonly budget: number }
}

/** One attempt at a step, as a report reads it. */
export interface AttemptReport {
  readonly attempt: number
  readonly outcome: string
  readonly output?: string
}

/** What running one step came to. */
export interface StepResult {
  /** `passed`/`failed` are verdicts; `skipped` is a step not attempted (no record); `todo` a person's step. */
  readonly status: 'passed' | 'failed' | 'skipped' | 'todo'
  readonly message: string
  /** Evidence documents this step left in the run directory. */
  readonly evidence: readonly string[]
  /** The transcript an llm step wrote. */
  readonly transcript?: string
  readonly attempts: readonly AttemptReport[]
}

/** A file's identity for "did this attempt write it": size and modification time, or nothing when absent. */
function fileStamp(path: string): string | undefined {
  try {
    const stats = statSync(path)
    return `${stats.size}:${stats.mtimeMs}:${stats.ino}`
  } catch {
    return undefined
  }
}

const DEFAULTS = { commandTimeoutMs: 600_000, harnessTimeoutMs: 300_000, killAfterMs: 2000 }

/**
 * Runs a step map's steps the way AEP's driver does, without deciding anything the engine decides:
 * command steps run and mint (or read) evidence, llm steps launch a harness against the loopback
 * provider, operator steps are owed to a person. It keeps the driver's run state — attempts per
 * step (cumulative), failures per dependency, visits per state, the transcript each llm step wrote
 * — and stops the run where the driver stops it: a retry budget spent, a visit budget spent.
 */
export class StepMapRun {
  readonly map: StepMap
  readonly workflow: Workflow
  readonly runDirectory: string
  readonly workspace: string
  private readonly options: StepMapRunOptions
  private readonly attempts = new Map<string, number>()
  private readonly circuitFailures = new Map<string, number>()
  /** The llm step the next command step of the current visit follows: its transcript. */
  private precedingTranscript: string | undefined
  private currentVisit: StateVisit | undefined
  private stoppedBecause: string | undefined

  constructor(map: StepMap | string, options: StepMapRunOptions) {
    this.map = typeof map === 'string' ? loadStepMap(map) : map
    this.workflow = typeof options.workflow === 'string' ? loadWorkflow(options.workflow) : options.workflow
    const refusals = checkRun(this.map, this.workflow, options.protocol)
    if (refusals.length > 0) throw new StepMapError(`step map \`${this.map.id}\` is not runnable against \`${this.workflow.id}/${this.workflow.version}\``, refusals)
    this.options = options
    this.workspace = resolve(options.workspace ?? process.cwd())
    this.runDirectory = resolve(this.workspace, options.runDirectory)
    for (const state of options.states ?? []) {
      if (!(state in this.workflow.states)) throw new StepMapError(`the visits name a state \`${this.workflow.id}\` does not declare`, [{ code: 'unknown_state', location: 'states', message: `\`${state}\` is not a state of workflow \`${this.workflow.id}\``, hint: `the workflow declares: ${Object.keys(this.workflow.states).join(', ')}` }])
    }
  }

  /** Ends the run: closes the provider its llm steps shared, when it has one to close. */
  async close(): Promise<void> {
    await this.options.provider?.close?.()
  }

  /** Why the run stopped, once it has. */
  get stopped(): string | undefined {
    return this.stoppedBecause
  }

  /** The entries into states this run makes, in order; only states the map gives steps. */
  visits(): StateVisit[] {
    const sequence = this.options.states ?? Object.keys(this.workflow.states)
    const seen = new Map<string, number>()
    const visits: StateVisit[] = []
    for (const state of sequence) {
      const entry = this.map.states[state]
      if (!entry || entry.steps.length === 0) continue
      const visit = (seen.get(state) ?? 0) + 1
      seen.set(state, visit)
      visits.push({ state, visit, steps: entry.steps, ...(visit > entry.visitBudget ? { overBudget: { budget: entry.visitBudget } } : {}) })
    }
    return visits
  }

  /** Enters a state; an entry beyond its visit budget stops the run, as the driver stops it. */
  enter(visit: StateVisit): StepResult | undefined {
    if (this.currentVisit === visit) return undefined
    this.currentVisit = visit
    this.precedingTranscript = undefined
    if (!visit.overBudget) return undefined
    const message = `state \`${visit.state}\` has been entered ${visit.visit} times and its visit budget is ${visit.overBudget.budget}; the run is cycling rather than progressing, and stops here`
    this.stoppedBecause ??= message
    return { status: 'failed', message, evidence: [], attempts: [] }
  }

  /** How long a step may take in all, for a test timeout: every attempt at its longest, and a margin. */
  stepTimeoutMs(step: Step): number {
    const one = step.kind === 'llm' ? (this.options.harnessTimeoutMs ?? DEFAULTS.harnessTimeoutMs) : (this.options.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs)
    return (retryBudget(step) + 1) * (one + DEFAULTS.killAfterMs + 1000) + 10_000
  }

  /** Runs step `index` of a visit (entering the visit first). */
  async runStep(visit: StateVisit, index: number): Promise<StepResult> {
    this.enter(visit)
    const step = visit.steps[index]
    if (!step) throw new RangeError(`state ${visit.state} has no step ${index}`)
    if (step.kind === 'operator') return { status: 'todo', message: `a person is owed this step: ${step.prompt}`, evidence: [], attempts: [] }
    if (this.stoppedBecause) return { status: 'skipped', message: `not attempted: the run stopped — ${this.stoppedBecause}`, evidence: [], attempts: [] }
    return step.kind === 'command' ? this.command(visit, index, step) : this.llm(visit, index, step)
  }

  private nextAttempt(state: string, index: number): number {
    const key = `${state}#${index}`
    const attempt = (this.attempts.get(key) ?? 0) + 1
    this.attempts.set(key, attempt)
    return attempt
  }

  private placeholders(): PlaceholderValues {
    return {
      run_directory: this.runDirectory,
      ...(this.options.task === undefined ? {} : { task: isAbsolute(this.options.task) ? this.options.task : resolve(this.workspace, this.options.task) }),
      ...(this.precedingTranscript === undefined ? {} : { transcript: this.precedingTranscript }),
    }
  }

  private environment(): Record<string, string> {
    const inherited: Record<string, string> = {}
    for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
      const value = process.env[name]
      if (value !== undefined) inherited[name] = value
    }
    return { ...inherited, ...this.options.env }
  }

  private exhausted(visit: StateVisit, index: number, step: Step, attempts: AttemptReport[], reason: string): StepResult {
    const budget = retryBudget(step)
    this.stoppedBecause ??= `step ${index} of \`${visit.state}\` (${stepLabel(step)}) spent its ${step.kind} retry budget of ${budget} with no verdict`
    const message = `no verdict after ${attempts.length} attempt(s) (retry budget ${budget}); the run stops here: ${reason}`
    return { status: 'failed', message, evidence: [], attempts }
  }

  private async command(visit: StateVisit, index: number, step: CommandStep): Promise<StepResult> {
    const attempts: AttemptReport[] = []
    for (;;) {
      if (step.dependsOn !== undefined && step.circuitBreaker !== undefined) {
        const failures = this.circuitFailures.get(step.dependsOn) ?? 0
        if (failures >= step.circuitBreaker) {
          const message = `not attempted${attempts.length > 0 ? ' again' : ''}: \`${step.dependsOn}\` has failed ${failures} time(s) in this run and its circuit is open. Nothing was observed here, so nothing was recorded either`
          return { status: 'skipped', message, evidence: [], attempts }
        }
      }
      const attempt = this.nextAttempt(visit.state, index)
      const outcome = await this.commandAttempt(visit, index, step, attempt)
      if (outcome.result) return { ...outcome.result, attempts: [...attempts, { attempt, outcome: outcome.result.message, ...(outcome.output === undefined ? {} : { output: outcome.output }) }] }
      attempts.push({ attempt, outcome: outcome.noVerdict, ...(outcome.output === undefined ? {} : { output: outcome.output }) })
      if (step.dependsOn !== undefined) this.circuitFailures.set(step.dependsOn, (this.circuitFailures.get(step.dependsOn) ?? 0) + 1)
      if (attempts.length > step.retries) return this.exhausted(visit, index, step, attempts, outcome.noVerdict)
    }
  }

  /** One attempt: a verdict (`result`) or no verdict (`noVerdict`, to be retried). */
  private async commandAttempt(visit: StateVisit, index: number, step: CommandStep, attempt: number): Promise<{ result: StepResult; output?: string } | { result?: undefined; noVerdict: string; output?: string }> {
    const values = this.placeholders()
    const argv: string[] = []
    for (const word of step.run) {
      const expanded = expandPlaceholders(word, values)
      if ('problem' in expanded) return { noVerdict: expanded.problem }
      argv.push(expanded.text)
    }
    let recordPath: string | undefined
    if (step.evidence?.record !== undefined) {
      const expanded = expandPlaceholders(step.evidence.record, values)
      if ('problem' in expanded) return { noVerdict: expanded.problem }
      recordPath = resolve(this.workspace, expanded.text)
    }
    mkdirSync(this.runDirectory, { recursive: true })
    const before = recordPath === undefined ? undefined : fileStamp(recordPath)
    const rendered = argv.join(' ')
    const ran = await runCommand(argv, { cwd: this.workspace, env: this.environment(), timeoutMs: this.options.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs, killAfterMs: DEFAULTS.killAfterMs })
    const output = ran.output
    if (ran.kind === 'no-verdict') return { noVerdict: ran.reason, output }
    const withOutput = (message: string): string => (output.trim().length > 0 ? `${message}\n\n${rendered} said:\n${output.trimEnd()}` : message)
    const mapping = step.evidence
    if (!mapping) {
      if (ran.exitCode === 0) return { result: { status: 'passed', message: `\`${rendered}\` exited 0 and declares no evidence`, evidence: [], attempts: [] }, output }
      return { noVerdict: withOutput(`\`${rendered}\` exited ${ran.exitCode} and declares no evidence, so nothing was observed`), output }
    }
    const now = (this.options.clock ?? Date.now)()
    if (recordPath !== undefined) {
      // The verifier wrote the record: read what it wrote; its exit status is not the verdict.
      const after = fileStamp(recordPath)
      if (before !== undefined && after === before) return { noVerdict: withOutput(`the verifier wrote no record at ${recordPath} in this attempt: the file there is the one that was there before it ran`), output }
      const reading = readRecord(recordPath, mapping.kind, now)
      if (!reading.ok) return { noVerdict: withOutput(reading.problem), output }
      const passed = reading.verdict.verdict === 'passed'
      const message = `${mapping.kind} from ${recordPath}: ${reading.verdict.verdict} — ${reading.verdict.why}`
      return { result: { status: passed ? 'passed' : 'failed', message: passed ? message : withOutput(message), evidence: [recordPath], attempts: [] }, output }
    }
    const record = mintFromExitStatus(mapping, ran.exitCode === 0, rendered, now)
    if (!record) return { noVerdict: withOutput(`\`${rendered}\` exited ${ran.exitCode}, and a \`${mapping.kind}\` record has no form that says so`), output }
    const path = join(this.runDirectory, 'evidence', `${visit.state}-${index}-${attempt}.yaml`)
    mkdirSync(join(this.runDirectory, 'evidence'), { recursive: true })
    writeEvidenceDocument(path, [record], 'yaml')
    if (ran.exitCode === 0) return { result: { status: 'passed', message: `${mapping.kind} minted at ${path}: \`${rendered}\` exited 0`, evidence: [path], attempts: [] }, output }
    return { result: { status: 'failed', message: withOutput(`the verifier said no: \`${rendered}\` exited ${ran.exitCode}; ${mapping.kind} minted at ${path}`), evidence: [path], attempts: [] }, output }
  }

  private async llm(visit: StateVisit, index: number, step: LlmStep): Promise<StepResult> {
    const attempts: AttemptReport[] = []
    for (;;) {
      const attempt = this.nextAttempt(visit.state, index)
      const outcome = await runLlmAttempt(step, {
        state: visit.state,
        index,
        attempt,
        runDirectory: this.runDirectory,
        workspace: this.workspace,
        capabilities: this.options.capabilities?.(visit.state) ?? [],
        reaching: this.options.reaching?.(visit.state) ?? [],
        harness: this.options.harness,
        provider: this.options.provider,
        timeoutMs: this.options.harnessTimeoutMs ?? DEFAULTS.harnessTimeoutMs,
      })
      if (outcome.kind === 'ran') {
        this.precedingTranscript = outcome.transcript
        return { status: 'passed', message: `the harness ran; ${outcome.events} event(s) in ${outcome.transcript}`, evidence: [], transcript: outcome.transcript, attempts: [...attempts, { attempt, outcome: 'ran' }] }
      }
      if (outcome.kind === 'out-of-scope') {
        // A session that happened: the steps after it may still check its transcript.
        this.precedingTranscript = outcome.transcript
        const lines = outcome.violations.map((violation) => `  ${violation.reason}`)
        return { status: 'failed', message: `the step wrote outside its scope:\n${lines.join('\n')}\nThe transcript is at ${outcome.transcript}`, evidence: [], transcript: outcome.transcript, attempts: [...attempts, { attempt, outcome: 'out of scope' }] }
      }
      attempts.push({ attempt, outcome: outcome.reason })
      if (attempts.length > retryBudget(step)) return this.exhausted(visit, index, step, attempts, outcome.reason)
    }
  }
}
