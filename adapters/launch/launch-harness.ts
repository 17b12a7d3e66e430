import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import type { Emission } from '../../src/events/types.js'
import { readTranscriptAsEvents } from '../transcript/read.js'
import { launchDeclarationSchema, type LaunchDeclaration, type Wire } from './declaration.js'
import { cachedHarnessRuntime } from './harness-cache.js'
import { findLaunch } from './launches.js'
import { LaunchPlanError, planDeclaredRun, type DeclaredLaunchPlan } from './plan.js'

/** What a launch is pointed at. */
export interface LaunchHarnessOptions {
  prompt: string
  /** The working directory the harness runs in. */
  workspace: string
  /** The loopback provider: `baseUrl` is `http://127.0.0.1:PORT/v1` (or a scope's `…/__scope/<id>/v1`), `wire` what it speaks. */
  provider: { baseUrl: string; wire: Wire }
  /** The model name the provider answers for. Default: `vitest-harness-model`. */
  model?: string
  /** The scratch root the environment is built under. Default: a new temporary directory. */
  scratch?: string
  /** The binary to run instead of the declared one (a path, or a name on the child's PATH). */
  program?: string
  /** Milliseconds before the whole process group is stopped. Default: 120000. */
  timeoutMs?: number
  /** Milliseconds between SIGTERM and SIGKILL after the timeout. Default: 2000. */
  killAfterMs?: number
}

/** A run, successful or not: failures are data here, never thrown (execa's result shape). */
export interface LaunchHarnessResult {
  adapter: string
  command: string
  program: string
  args: string[]
  env: Record<string, string>
  scratch: string
  /** The exit code, or undefined when the process did not exit by itself (signal, timeout, spawn failure). */
  exitCode: number | undefined
  signal: string | undefined
  timedOut: boolean
  durationMs: number
  /** True when the run did not exit 0 by itself. */
  failed: boolean
  /** One line saying what failed, execa style; empty for a success. */
  shortMessage: string
  cause: unknown
  stdout: string
  stderr: string
  /** The trajectory the harness wrote, converted; empty when it wrote none. */
  events: Emission[]
  /** stdout, converted, when the harness prints a transcript format there. */
  stdoutEvents: Emission[]
  /** Why a trajectory could not be converted, when it could not. */
  conversionError: unknown
}

function resolveDeclaration(target: string | LaunchDeclaration | { declaration?: LaunchDeclaration; id: string }): LaunchDeclaration | string {
  if (typeof target === 'string') return findLaunch(target) ?? `no launch is declared for ${JSON.stringify(target)}`
  if ('argv' in target) return launchDeclarationSchema.parse(target)
  return target.declaration ?? findLaunch(target.id) ?? `no launch is declared for ${JSON.stringify(target.id)}`
}

/** Stops every process of the group the child leads; a group already gone is fine. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: nothing left to stop.
  }
}

async function collect(path: string, format: string): Promise<Emission[]> {
  const events: Emission[] = []
  for await (const event of readTranscriptAsEvents(path, { from: format, run: 'launch' })) events.push(event)
  return events
}

/**
 * Runs a harness headless against a loopback provider, with the environment its declaration
 * constructs (nothing inherited), a timeout that stops its whole process group (no grandchild
 * survives), and its trajectory converted to events. Never throws for a failed run: the result
 * says what happened.
 *
 * @example
 * const run = await launchHarness('codex', { prompt: 'read note.txt', workspace, provider: { baseUrl, wire: 'openai-responses' } })
 * expect(run.exitCode).toBe(0)
 */
export async function launchHarness(
  target: string | LaunchDeclaration | { declaration?: LaunchDeclaration; id: string },
  options: LaunchHarnessOptions,
): Promise<LaunchHarnessResult> {
  const started = process.hrtime.bigint()
  const elapsed = (): number => Number((process.hrtime.bigint() - started) / 1_000_000n)
  const declaration = resolveDeclaration(target)
  const scratch = options.scratch ?? mkdtempSync(join(tmpdir(), 'vh-launch-'))
  const failure = (adapter: string, shortMessage: string, cause: unknown = undefined): LaunchHarnessResult => ({
    adapter,
    command: '',
    program: '',
    args: [],
    env: {},
    scratch,
    exitCode: undefined,
    signal: undefined,
    timedOut: false,
    durationMs: elapsed(),
    failed: true,
    shortMessage,
    cause,
    stdout: '',
    stderr: '',
    events: [],
    stdoutEvents: [],
    conversionError: undefined,
  })
  if (typeof declaration === 'string') return failure(typeof target === 'string' ? target : 'unknown', declaration)
  const nodeBin = cachedHarnessRuntime(declaration)
  if (nodeBin === undefined) {
    const runtime = declaration.runtime
    return failure(
      declaration.adapter,
      `VH_HARNESS_RUNTIME_MISSING at ${declaration.adapter}: the ${declaration.adapter} launch needs node ${runtime?.engines} (${runtime?.package}@${runtime?.version}), which is not in the harness cache; ensureHarnessBinary(launch) installs it`,
    )
  }
  let plan: DeclaredLaunchPlan
  try {
    plan = planDeclaredRun(declaration, {
      program: options.program,
      prompt: options.prompt,
      workspace: options.workspace,
      root: scratch,
      baseUrl: options.provider.baseUrl,
      wire: options.provider.wire,
      model: options.model,
      nodeBin,
    })
  } catch (error) {
    if (error instanceof LaunchPlanError) return failure(declaration.adapter, error.message)
    throw error
  }
  for (const directory of plan.directories) mkdirSync(join(scratch, directory), { recursive: true })
  for (const file of plan.files) {
    const path = join(scratch, file.path)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, file.content)
  }
  const { program, args, env } = plan
  const command = [program, ...args].join(' ')

  let timedOut = false
  const child = execa(program, args, {
    cwd: options.workspace,
    env,
    extendEnv: false,
    reject: false,
    // Its own process group, so a timeout stops the harness and everything it started.
    detached: true,
    stdin: 'ignore',
    maxBuffer: 256 * 1024 * 1024,
    cleanup: true,
  })
  const timeoutMs = options.timeoutMs ?? 120_000
  let escalation: NodeJS.Timeout | undefined
  const timer = setTimeout(() => {
    timedOut = true
    killGroup(child.pid, 'SIGTERM')
    escalation = setTimeout(() => killGroup(child.pid, 'SIGKILL'), options.killAfterMs ?? 2000)
  }, timeoutMs)
  const result = await child
  clearTimeout(timer)
  if (escalation) clearTimeout(escalation)
  // Whatever the harness left running (a daemon, a stuck tool) goes with it.
  killGroup(child.pid, 'SIGKILL')

  const stdout = typeof result.stdout === 'string' ? result.stdout : ''
  const stderr = typeof result.stderr === 'string' ? result.stderr : ''
  const exitCode = typeof result.exitCode === 'number' ? result.exitCode : undefined
  const failed = timedOut || exitCode !== 0
  let shortMessage = ''
  if (timedOut) shortMessage = `Command timed out after ${timeoutMs} milliseconds: ${command}`
  else if (result.failed && exitCode === undefined) shortMessage = result.shortMessage ?? `Command failed: ${command}`
  else if (exitCode !== 0) shortMessage = `Command failed with exit code ${exitCode}: ${command}`

  let events: Emission[] = []
  let stdoutEvents: Emission[] = []
  let conversionError: unknown
  try {
    if (declaration.trajectory) {
      const path = join(scratch, declaration.trajectory.path)
      if (existsSync(path)) events = await collect(path, declaration.trajectory.format)
    }
    if (declaration.stdout && stdout.length > 0) {
      const path = join(scratch, 'stdout.jsonl')
      writeFileSync(path, stdout)
      stdoutEvents = await collect(path, declaration.stdout.format)
    }
  } catch (error) {
    conversionError = error
  }
  return {
    adapter: declaration.adapter,
    command,
    program,
    args,
    env,
    scratch,
    exitCode,
    signal: typeof result.signal === 'string' ? result.signal : undefined,
    timedOut,
    durationMs: elapsed(),
    failed,
    shortMessage,
    cause: result.failed ? result.cause : undefined,
    stdout,
    stderr,
    events,
    stdoutEvents,
    conversionError,
  }
}
