import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { launchDeclarationSchema, type LaunchDeclaration } from '../../adapters/launch/declaration.js'
import { launchHarness } from '../../adapters/launch/launch-harness.js'
import { findLaunch } from '../../adapters/launch/launches.js'
import type { Emission } from '../events/types.js'
import { EventStreamWriter } from '../events/write.js'
import { resolveHarness, type HarnessOption, type StepProvider, type StepProviderSession } from './provider.js'
import { checkWrite, writesInTranscript, type ScopeViolation } from './scope.js'
import { STEP_CONTEXT_ENV, writeStepContext } from './step-context.js'
import type { LlmStep } from './types.js'

/** Where one attempt at one llm step leaves its transcript: `<run>/transcripts/<state>-<index>-<attempt>.jsonl`. */
export function transcriptPath(runDirectory: string, state: string, index: number, attempt: number): string {
  return join(runDirectory, 'transcripts', `${state}-${index}-${attempt}.jsonl`)
}

export interface LlmAttemptContext {
  readonly state: string
  readonly index: number
  readonly attempt: number
  readonly runDirectory: string
  readonly workspace: string
  readonly capabilities: readonly string[]
  readonly reaching: readonly string[]
  readonly harness: HarnessOption | undefined
  readonly provider: StepProvider | undefined
  readonly timeoutMs: number
}

/** What one attempt at an llm step came to. */
export type LlmAttempt =
  /** The harness ran to its end: nothing to submit, and the scope held. */
  | { readonly kind: 'ran'; readonly transcript: string; readonly events: number }
  /** The harness ran and wrote outside the step's scope. */
  | { readonly kind: 'out-of-scope'; readonly transcript: string; readonly violations: readonly ScopeViolation[] }
  /** Nothing was observed: no provider, no launch, a harness that failed or timed out. */
  | { readonly kind: 'no-verdict'; readonly reason: string; readonly transcript?: string }

/**
 * The prompt one llm step is given: the map's words, the skills to load, the state it is in, and
 * that nothing it says is evidence (upstream's `prompt_for`, without the engine's requirement lines).
 */
export function promptFor(step: LlmStep, state: string): string {
  let prompt = step.prompt
  if (step.skills.length > 0) {
    const named = step.skills.map((skill) => `the \`${skill}\``).join(' and ')
    prompt += `\n\nLoad ${named} skill${step.skills.length === 1 ? '' : 's'} before you act, with the \`Skill\` tool.\n`
  }
  prompt += `\n\nYou are in workflow state \`${state}\`.\n`
  prompt += '\nYou cannot submit evidence, and nothing you say is evidence. What you achieve is observed by the verifier the driver runs after this step.\n'
  return prompt
}

function declarationOf(launch: string | LaunchDeclaration): LaunchDeclaration | undefined {
  return typeof launch === 'string' ? findLaunch(launch) : launchDeclarationSchema.parse(launch)
}

/** Writes the events as this step's stream: its own run id, and a closing marker that counts its own lines. */
function writeTranscript(path: string, run: string, events: readonly Emission[]): void {
  mkdirSync(dirname(path), { recursive: true })
  const writer = new EventStreamWriter(run)
  const lines = events.map((event) => (event.event === 'stream.closed' ? writer.close(event.reason) : writer.write(event)))
  writeFileSync(path, lines.join(''))
}

/**
 * Runs one attempt at an llm step: writes `step-context.json`, starts the loopback provider for the
 * step, launches the named harness through its adapter with the step context's path in its
 * environment, saves what it did as a `metaharness.event/1` transcript, and checks the files the
 * transcript shows written against the step's scope.
 */
export async function runLlmAttempt(step: LlmStep, context: LlmAttemptContext): Promise<LlmAttempt> {
  const choice = resolveHarness(step.harness, context.harness)
  const declaration = declarationOf(choice.launch)
  if (!declaration) return { kind: 'no-verdict', reason: `the step names harness \`${step.harness}\`, and no launch is declared for \`${String(choice.launch)}\`` }
  if (!context.provider) return { kind: 'no-verdict', reason: 'an llm step runs against a loopback provider, and this run was given none (pass `provider`)' }
  const stepContext = writeStepContext({
    runDirectory: context.runDirectory,
    store: join(context.workspace, '.engineering', 'planning'),
    state: context.state,
    stepIndex: context.index,
    attempt: context.attempt,
    capabilities: context.capabilities,
    harness: declaration.adapter,
    reaching: context.reaching,
  })
  let session: StepProviderSession
  try {
    session = await context.provider({ state: context.state, index: context.index, attempt: context.attempt, harness: step.harness, cassette: `${context.state}-${context.index}` })
  } catch (error) {
    return { kind: 'no-verdict', reason: `the loopback provider for this step did not start: ${error instanceof Error ? error.message : String(error)}` }
  }
  const transcript = transcriptPath(context.runDirectory, context.state, context.index, context.attempt)
  let attempt: LlmAttempt
  try {
    attempt = await launchAndCheck(step, context, declaration, choice.program, session, stepContext, transcript)
  } catch (error) {
    await session.close?.()
    throw error
  }
  const unanswered = await session.close?.()
  // A harness the provider could not answer did not run the step it was asked to run.
  if (typeof unanswered === 'string' && unanswered.length > 0) {
    return { kind: 'no-verdict', reason: attempt.kind === 'no-verdict' ? `${attempt.reason}; ${unanswered}` : unanswered, transcript }
  }
  return attempt
}

async function launchAndCheck(
  step: LlmStep,
  context: LlmAttemptContext,
  declaration: LaunchDeclaration,
  program: string | undefined,
  session: StepProviderSession,
  stepContext: string,
  transcript: string,
): Promise<LlmAttempt> {
  // The harness's own state (its home, config, caches) is no product of the run: it lives under the
  // OS temp dir, and goes once the harness has run; an attempt that gave no verdict keeps it for a look.
  const scratch = mkdtempSync(join(tmpdir(), `vh-step-${context.state}-${context.index}-${context.attempt}-`))
  const kept = `the harness's scratch root is kept at ${scratch}`
  const discardScratch = (attempt: LlmAttempt): LlmAttempt => {
    rmSync(scratch, { recursive: true, force: true })
    return attempt
  }
  const run = await launchHarness(
    { ...declaration, env: { ...declaration.env, [STEP_CONTEXT_ENV]: stepContext } },
    {
      prompt: promptFor(step, context.state),
      workspace: context.workspace,
      provider: { baseUrl: session.baseUrl, wire: session.wire },
      ...(session.model === undefined ? {} : { model: session.model }),
      scratch,
      ...(program === undefined ? {} : { program }),
      timeoutMs: context.timeoutMs,
    },
  )
  const events = run.stdoutEvents.length > 0 ? run.stdoutEvents : run.events
  writeTranscript(transcript, `${context.state}-${context.index}-${context.attempt}`, events)
  if (run.failed) {
    const tail = run.stderr.trim().split('\n').slice(-3).join(' | ')
    return { kind: 'no-verdict', reason: `${run.shortMessage}; ${kept}${tail ? `; it said: ${tail}` : ''}; the transcript is at ${transcript}`, transcript }
  }
  if (run.conversionError !== undefined) {
    const why = run.conversionError instanceof Error ? run.conversionError.message : String(run.conversionError)
    return { kind: 'no-verdict', reason: `the harness ran, and its transcript could not be read: ${why}; ${kept}`, transcript }
  }
  const violations = writesInTranscript(events).flatMap((write) => checkWrite(step.scope, write, context.workspace) ?? [])
  if (violations.length > 0) return discardScratch({ kind: 'out-of-scope', transcript, violations })
  return discardScratch({ kind: 'ran', transcript, events: events.length })
}
