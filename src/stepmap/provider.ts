import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'

/** Which llm step is about to run, for the provider to pick its cassette and the harness its launch. */
export interface LlmStepCall {
  readonly state: string
  readonly index: number
  /** Counting from 1, cumulative over the run. */
  readonly attempt: number
  /** The harness the step names (`claude-code`, `codex`…). */
  readonly harness: string
  /** The cassette a step is replayed from by default: `<state>-<index>`. */
  readonly cassette: string
}

/** A loopback provider serving one llm step: `baseUrl` is `http://127.0.0.1:PORT/v1`, or a scope's `…/__scope/<id>/v1` (every wire keeps the path). */
export interface StepProviderSession {
  readonly baseUrl: string
  readonly wire: Wire
  /** The model name the provider answers for. */
  readonly model?: string
  /** Ends the session; a returned sentence says what the provider could not answer, for the step's failure. */
  close?(): Promise<string | undefined | void> | string | undefined | void
}

/**
 * Starts (or points at) the loopback provider for one llm step. `close`, when it has one, runs once
 * the run is over: a provider shared by the run's steps stops there.
 */
export type StepProvider = ((call: LlmStepCall) => Promise<StepProviderSession> | StepProviderSession) & { close?(): Promise<void> | void }

/** How a step's `harness:` name is launched: an adapter's launch declaration, optionally another binary. */
export interface HarnessChoice {
  /** A launch id (`claude`, `codex`) or a declaration. */
  readonly launch: string | LaunchDeclaration
  /** The binary to run instead of the declared one. */
  readonly program?: string
}

/** Resolves a step's `harness:` to a launch; a record maps names, a function decides. */
export type HarnessOption = Readonly<Record<string, HarnessChoice | string>> | ((harness: string) => HarnessChoice | string | undefined)

/** AEP's harness names, as this package's launch ids: `claude-code` is Claude Code's `claude`. */
const DEFAULT_LAUNCH: Readonly<Record<string, string>> = { 'claude-code': 'claude' }

/** The launch a step's `harness:` resolves to; the named option wins, then AEP's names, then the id itself. */
export function resolveHarness(harness: string, option: HarnessOption | undefined): HarnessChoice {
  const chosen = typeof option === 'function' ? option(harness) : option?.[harness]
  if (chosen !== undefined) return typeof chosen === 'string' ? { launch: chosen } : chosen
  return { launch: DEFAULT_LAUNCH[harness] ?? harness }
}
