import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../util/atomic-write.js'

/** The file an llm step's hooks read to learn which step they are in, rewritten before every llm step. */
export const STEP_CONTEXT_FILE = 'step-context.json'
/** The variable naming that file to the session. */
export const STEP_CONTEXT_ENV = 'AEP_DRIVE_STEP_CONTEXT'
export const STEP_CONTEXT_FORMAT = 'aep.drive-step-context/1'

/** `aep.drive-step-context/1`, keys in the driver's order: facts about the state, never its rules. */
export interface StepContextDocument {
  readonly format: typeof STEP_CONTEXT_FORMAT
  /** Where the run's records live. */
  readonly run_directory: string
  /** The planning store the run is over. */
  readonly store: string
  readonly state: string
  readonly step_index: number
  /** Counting from 1, cumulative over the run. */
  readonly attempt: number
  /** Whether `command.execute` is admitted here. */
  readonly shell_offered: boolean
  /** Every admitted capability, as the protocol spells it. */
  readonly capabilities: readonly string[]
  /** The harness's own names for them, sorted. */
  readonly tools: readonly string[]
  /** One line per requirement not yet met on a way out of the state. */
  readonly reaching: readonly string[]
}

export interface StepContextFacts {
  readonly runDirectory: string
  readonly store: string
  readonly state: string
  readonly stepIndex: number
  readonly attempt: number
  readonly capabilities: readonly string[]
  readonly harness: string
  readonly reaching: readonly string[]
}

/**
 * The tool names a harness offers for admitted capabilities (the rendering half of AEP's tool
 * decision): Claude Code's names as `--allowedTools` takes them; a shell only with
 * `command.execute`, the skill loader always, a subagent spawner never.
 */
export function renderTools(harness: string, capabilities: readonly string[]): string[] {
  const admits = (capability: string): boolean => capabilities.includes(capability)
  const tools: string[] = []
  if (harness === 'claude' || harness === 'claude-code') {
    if (admits('repository.read') || admits('artifact.read')) tools.push('Read', 'Glob', 'Grep')
    if (admits('repository.write')) tools.push('Edit', 'Write', 'NotebookEdit')
    if (admits('network.read')) tools.push('WebFetch', 'WebSearch')
    if (admits('command.execute')) tools.push('Bash')
    tools.push('Skill')
  } else if (harness === 'codex') {
    if (admits('repository.read') || admits('artifact.read')) tools.push('read_file', 'list_dir', 'grep_files')
    if (admits('repository.write')) tools.push('apply_patch')
    if (admits('network.read')) tools.push('web_search')
    if (admits('command.execute')) tools.push('exec_command')
  }
  return [...new Set(tools)].sort()
}

/** The document, as its facts say. */
export function stepContextDocument(facts: StepContextFacts): StepContextDocument {
  return {
    format: STEP_CONTEXT_FORMAT,
    run_directory: facts.runDirectory,
    store: facts.store,
    state: facts.state,
    step_index: facts.stepIndex,
    attempt: facts.attempt,
    shell_offered: facts.capabilities.includes('command.execute'),
    capabilities: [...facts.capabilities],
    tools: renderTools(facts.harness, facts.capabilities),
    reaching: [...facts.reaching],
  }
}

/** Writes `<run>/step-context.json` (pretty JSON, `\n`-terminated) and returns its path. */
export function writeStepContext(facts: StepContextFacts): string {
  mkdirSync(facts.runDirectory, { recursive: true })
  const path = join(facts.runDirectory, STEP_CONTEXT_FILE)
  writeFileAtomic(path, `${JSON.stringify(stepContextDocument(facts), null, 2)}\n`)
  return path
}
