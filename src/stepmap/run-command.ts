import { execa } from 'execa'

/** What running one command produced: an exit status, or no verdict at all. */
export type CommandRunOutcome =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly output: string; readonly durationMs: number }
  | { readonly kind: 'no-verdict'; readonly reason: string; readonly output: string; readonly timedOut: boolean; readonly durationMs: number }

export interface RunCommandOptions {
  readonly cwd: string
  /** The whole environment: nothing is inherited. */
  readonly env: Readonly<Record<string, string>>
  /** Milliseconds before the process group is stopped. */
  readonly timeoutMs: number
  /** Milliseconds between SIGTERM and SIGKILL once the timeout fired. Default: 2000. */
  readonly killAfterMs?: number
}

/** Signals every process of the group the child leads; a group already gone is fine. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/**
 * Runs an argv with no shell, in a constructed environment, in its own process group. A timeout
 * stops the whole group (SIGTERM, then SIGKILL), and whatever the command left running is stopped
 * when it exits. A process that could not start, was killed by a signal or timed out produced no
 * verdict; any exit status is one — a red suite is a verdict, not a failure to run.
 */
export async function runCommand(argv: readonly string[], options: RunCommandOptions): Promise<CommandRunOutcome> {
  const [program, ...args] = argv
  const started = performance.now()
  const elapsed = (): number => Math.round(performance.now() - started)
  const rendered = argv.join(' ')
  if (program === undefined) return { kind: 'no-verdict', reason: 'there is nothing to run', output: '', timedOut: false, durationMs: 0 }
  const child = execa(program, args, {
    cwd: options.cwd,
    env: { ...options.env },
    extendEnv: false,
    reject: false,
    detached: true,
    stdin: 'ignore',
    all: true,
    stripFinalNewline: false,
    maxBuffer: 64 * 1024 * 1024,
    cleanup: true,
  })
  let timedOut = false
  let escalation: NodeJS.Timeout | undefined
  const timer = setTimeout(() => {
    timedOut = true
    killGroup(child.pid, 'SIGTERM')
    escalation = setTimeout(() => killGroup(child.pid, 'SIGKILL'), options.killAfterMs ?? 2000)
  }, options.timeoutMs)
  const result = await child
  clearTimeout(timer)
  if (escalation) clearTimeout(escalation)
  // A grandchild the command left behind goes with it.
  killGroup(child.pid, 'SIGKILL')
  const output = typeof result.all === 'string' ? result.all : ''
  if (timedOut) return { kind: 'no-verdict', reason: `\`${rendered}\` timed out after ${options.timeoutMs} milliseconds, and its process group was stopped`, output, timedOut, durationMs: elapsed() }
  if (typeof result.exitCode === 'number') return { kind: 'exited', exitCode: result.exitCode, output, durationMs: elapsed() }
  if (typeof result.signal === 'string') return { kind: 'no-verdict', reason: `\`${rendered}\` was killed by ${result.signal} before it produced a verdict`, output, timedOut, durationMs: elapsed() }
  const cause = result.cause instanceof Error ? result.cause.message : (result.shortMessage ?? 'it did not start')
  return { kind: 'no-verdict', reason: `\`${rendered}\` could not be run: ${cause}`, output, timedOut, durationMs: elapsed() }
}
