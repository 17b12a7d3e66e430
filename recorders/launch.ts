import { execa } from 'execa'
import { RecorderError } from './errors.js'

/** The C1 launch record: exactly what was run, under exactly which environment. */
export interface LaunchRecord {
  readonly program: string
  readonly args: readonly string[]
  readonly env: Readonly<Record<string, string>>
}

export interface LaunchOptions {
  readonly program: string
  readonly args?: readonly string[]
  /** The whole environment the program gets. Nothing is inherited unless named in `inherit`. */
  readonly env?: Readonly<Record<string, string>>
  /** Variables copied from this process's environment (when set there), e.g. `['PATH']`. */
  readonly inherit?: readonly string[]
  readonly cwd?: string
  /** Text written to the program's stdin; stdin is closed (empty) when absent. */
  readonly input?: string
  /** Kill the program after this many milliseconds. Default: no limit. */
  readonly timeoutMs?: number
  /** Where inherited variables are read. Default: `process.env`. */
  readonly from?: Readonly<Record<string, string | undefined>>
}

/** A finished launch, failed or not, with the record it ran under: failures are data, not throws. */
export interface LaunchResult {
  readonly record: LaunchRecord
  readonly exitCode: number | undefined
  readonly signal: string | undefined
  readonly timedOut: boolean
  readonly failed: boolean
  readonly stdout: string
  readonly stderr: string
  readonly durationMs: number
  /** execa's one-line summary when the launch failed (`Command failed with exit code 1: …`). */
  readonly shortMessage: string | undefined
}

/** The environment a launch gets: the declared variables plus the inherited ones, nothing else. */
export function constructEnvironment(options: Pick<LaunchOptions, 'env' | 'inherit' | 'from'>): Record<string, string> {
  const from = options.from ?? process.env
  const env: Record<string, string> = {}
  for (const name of options.inherit ?? []) {
    const value = from[name]
    if (value !== undefined) env[name] = value
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (typeof value !== 'string') throw new RecorderError('VH_OPTION_INVALID', `env.${name} must be a string; got ${typeof value}`, { location: `env.${name}` })
    env[name] = value
  }
  return env
}

/**
 * Runs a program under a constructed environment (execa with `extendEnv: false`) and records
 * `{program, args, env}` as the C1 launch record.
 *
 * @example
 * const { record, stdout } = await recordLaunch({ program: 'codex', args: ['exec', '--json', 'hi'], env: { CODEX_HOME: home }, inherit: ['PATH'] })
 */
export async function recordLaunch(options: LaunchOptions): Promise<LaunchResult> {
  const env = constructEnvironment(options)
  const record: LaunchRecord = { program: options.program, args: [...(options.args ?? [])], env }
  const result = await execa(options.program, [...record.args], {
    env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  })
  return {
    record,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    failed: result.failed,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    durationMs: result.durationMs,
    shortMessage: result.failed ? result.shortMessage : undefined,
  }
}
