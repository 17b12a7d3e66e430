import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect } from 'vitest'
import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'
import { cachedHarnessRuntime } from '../../adapters/launch/harness-cache.js'
import { launchHarness, type LaunchHarnessResult } from '../../adapters/launch/launch-harness.js'
import { planDeclaredRun } from '../../adapters/launch/plan.js'
import { recordLaunch, type LaunchResult } from '../../recorders/launch.js'
import { startServe } from './serve-process.js'

/**
 * Where the e2e suite leaves the harness transcripts it produced, for later tests and people:
 * `<os tmpdir>/vitest-harness-e2e/transcripts/<harness>/<run>/`.
 */
export const E2E_ROOT = join(tmpdir(), 'vitest-harness-e2e')

export interface HarnessRun {
  readonly launch: LaunchResult
  /** The provider's request log lines, parsed. */
  readonly requests: Record<string, unknown>[]
  /** The harness's own session record (Codex rollout, Claude session file), if it wrote one. */
  readonly session: string | undefined
  readonly serveExit: number | null
}

/** Every file under a folder, recursively. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** A fresh folder at a fixed path: the harness sees the same cwd on every run, so requests match. */
export function freshDir(...parts: string[]): string {
  const dir = join(E2E_ROOT, ...parts)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  return dir
}

/**
 * Serves the provider (built bin), runs the harness under a constructed environment, stops the
 * provider, and returns what happened. `launchFor` builds the launch from the provider's base URL.
 */
export async function runAgainstProvider(options: {
  serveArgs: string[]
  requestLog: string
  launchFor: (baseUrl: string) => Parameters<typeof recordLaunch>[0]
  sessionDir: string
}): Promise<HarnessRun> {
  rmSync(options.requestLog, { force: true })
  // The provider gets a constructed environment too. It has no CI variable on purpose: the scripted
  // run is recorded into a scratch cassette from a scenario (provider_emulated, no vendor reached),
  // and CI's no-recording rule guards the cassettes a suite replays, which this step produces.
  const served = await startServe([...options.serveArgs, '--record-requests', options.requestLog], { PATH: process.env['PATH'] ?? '' })
  let launch: LaunchResult
  try {
    launch = await recordLaunch({ ...options.launchFor(served.baseUrl), timeoutMs: 240_000 })
  } finally {
    await served.stop()
  }
  const serveExit = served.child.exitCode
  const requests = existsSync(options.requestLog) ? readFileSync(options.requestLog, 'utf8').trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []
  const sessionFile = filesUnder(options.sessionDir).find((path) => path.endsWith('.jsonl'))
  return { launch, requests, session: sessionFile ? readFileSync(sessionFile, 'utf8') : undefined, serveExit }
}

/** Leaves a run's transcripts where later tests find them. */
export function keepTranscripts(harness: string, run: string, files: Record<string, string | undefined>): void {
  for (const [name, text] of Object.entries(files)) {
    if (text === undefined) continue
    const path = join(E2E_ROOT, 'transcripts', harness, run, name)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
}

/** The minimal PATH a harness needs: node (the npm shims are node scripts) and the system tools. */
export function minimalPath(): string {
  return [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':')
}

/** A declared launch run against the provider: the launcher's result and the provider's request log. */
export interface DeclaredRun {
  readonly result: LaunchHarnessResult
  readonly requests: Record<string, unknown>[]
  /** The provider's base URL for this run (its port is ephemeral). */
  readonly baseUrl: string
}

/**
 * Serves the provider (built bin), runs the harness through its launch declaration
 * (`launchHarness`: the argv, environment and config files the declaration builds, nothing
 * inherited) in a fixed workspace and scratch root, stops the provider, and returns what happened.
 */
export async function runDeclaredLaunch(options: {
  launch: LaunchDeclaration
  program: string
  wire: Wire
  serveArgs: string[]
  label: string
  prompt: string
  workspace: string
  scratch: string
  /** The model name the harness asks for. Default: the declaration's own. */
  model?: string
}): Promise<DeclaredRun> {
  const harness = options.launch.adapter
  const requestLog = join(E2E_ROOT, harness, `${options.label}.requests.jsonl`)
  rmSync(requestLog, { force: true })
  const served = await startServe([...options.serveArgs, '--record-requests', requestLog], { PATH: process.env['PATH'] ?? '' })
  let result: LaunchHarnessResult
  try {
    result = await launchHarness(options.launch, {
      prompt: options.prompt,
      workspace: options.workspace,
      scratch: options.scratch,
      program: options.program,
      provider: { baseUrl: served.baseUrl, wire: options.wire },
      ...(options.model === undefined ? {} : { model: options.model }),
      timeoutMs: 240_000,
    })
  } finally {
    await served.stop()
  }
  const requests = existsSync(requestLog) ? readFileSync(requestLog, 'utf8').trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []
  return { result, requests, baseUrl: served.baseUrl }
}

/** One scripted call on one harness: the model calls `tool` with `args`, then answers `Done.`. */
export interface OneCall {
  readonly name: string
  readonly launch: LaunchDeclaration
  readonly wire: Wire
  readonly tool: string
  readonly args: Record<string, string>
}

/** A declared run of one scripted call, and the stdout it printed, kept as a file. */
export interface OneCallRun extends DeclaredRun {
  /** `<E2E_ROOT>/<suite>/<name>.stdout.jsonl`. */
  readonly stdout: string
}

/**
 * The model makes one call (`tool` with `args`), then answers `Done.`: the harness runs it in
 * `workspace` (a fresh one unless given) and must exit 0; its stdout is kept for the checks.
 */
export function runOneCall(options: OneCall & { suite: string; program: string; prompt: string; workspace?: string }): Promise<OneCallRun> {
  return runCalls({ ...options, calls: [{ tool: options.tool, args: options.args }] })
}

/** As `runOneCall`, the model making `calls` in order, one a turn. */
export async function runCalls(options: {
  suite: string
  name: string
  launch: LaunchDeclaration
  wire: Wire
  program: string
  prompt: string
  calls: readonly { readonly tool: string; readonly args: Record<string, string> }[]
  workspace?: string
}): Promise<OneCallRun> {
  const dir = join(E2E_ROOT, options.suite)
  mkdirSync(dir, { recursive: true })
  const scenario = join(dir, `${options.name}.json`)
  const turns = [...options.calls.map((call) => ({ tool_calls: [{ name: call.tool, arguments: call.args }] })), { text: 'Done.' }]
  writeFileSync(scenario, JSON.stringify({ scenario: `${options.suite}-${options.name}`, turns, untooled: { text: 'A title' } }))
  const run = await runDeclaredLaunch({
    launch: options.launch,
    program: options.program,
    wire: options.wire,
    serveArgs: ['--scenario', scenario],
    label: `${options.suite}-${options.name}`,
    prompt: options.prompt,
    workspace: options.workspace ?? freshDir(options.suite, options.name, 'work'),
    scratch: freshDir(options.suite, options.name, 'root'),
  })
  expect(run.result.exitCode, run.result.stderr).toBe(0)
  const stdout = join(dir, `${options.name}.stdout.jsonl`)
  writeFileSync(stdout, run.result.stdout)
  return { ...run, stdout }
}

/**
 * The run's program, argv and environment are exactly what the declaration plans for the run's
 * inputs (`planDeclaredRun`, the planner the C1 launch vector checks), and so are the config
 * files it wrote under the scratch root: the vector pins what really ran.
 */
export function expectRunAsPlanned(run: DeclaredRun, launch: LaunchDeclaration, inputs: { prompt: string; workspace: string; wire: Wire }): void {
  const plan = planDeclaredRun(launch, {
    program: run.result.program,
    prompt: inputs.prompt,
    workspace: inputs.workspace,
    root: run.result.scratch,
    baseUrl: run.baseUrl,
    wire: inputs.wire,
    nodeBin: cachedHarnessRuntime(launch) ?? '',
  })
  expect({ program: run.result.program, args: run.result.args, env: run.result.env }).toEqual({ program: plan.program, args: plan.args, env: plan.env })
  for (const file of plan.files) expect(readFileSync(join(run.result.scratch, file.path), 'utf8'), file.path).toBe(file.content)
}

/** The text of every tool result in a stream-json transcript, joined. */
export function toolResults(path: string): string {
  const out: string[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const record = JSON.parse(line) as { type?: string; message?: { content?: unknown } }
    if (record.type !== 'user' || !Array.isArray(record.message?.content)) continue
    for (const block of record.message.content as { type?: string; content?: unknown }[]) if (block.type === 'tool_result') out.push(JSON.stringify(block.content))
  }
  return out.join('\n')
}
