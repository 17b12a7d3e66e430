import { spawnSync } from 'node:child_process'
import { escapeForTerminal } from '../util/terminal-text.js'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import { resolveOnPath } from '../../adapters/shared/resolve-program.js'

/** Why `doctor` could not find out: never a verdict about the binary (exit 2). */
export class DoctorRefusal extends Error {
  constructor(
    readonly code: 'VH_NO_CHILD_PATH' | 'VH_NOT_ON_PATH' | 'VH_VERSION_FAILED' | 'VH_HELP_FAILED',
    message: string,
  ) {
    super(message)
    this.name = 'DoctorRefusal'
  }
}

/** What `doctor` found: the binary the spawn would execute, its version, and the flags it does not declare. */
export interface DoctorReport {
  /** The name the report lines start with: the vendor binary's. */
  readonly label: string
  /** The absolute path resolved on the child's PATH. */
  readonly program: string
  /** The version token of what the binary reported. */
  readonly version: string
  /** Exactly what `--version` printed, trimmed. */
  readonly reported: string
  readonly pinned: readonly string[]
  readonly onPin: boolean
  /** Flags the adapter sends that the binary does not declare; `undefined` when the adapter declares no flag surface. */
  readonly undeclaredFlags: readonly string[] | undefined
}

/** The version out of a banner: the first whitespace-separated token that starts with a digit. */
export function versionToken(reported: string): string {
  return reported.split(/\s+/).find((token) => /^[0-9]/.test(token)) ?? reported
}

function declares(help: string, flag: string): boolean {
  const escaped = flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[\\s,[(|])${escaped}(?=$|[\\s,=\\])|<])`, 'm').test(help)
}

/**
 * Asks the installed vendor binary what it is, for free: resolved on the **child's** constructed
 * PATH (the binary a spawn would execute, not the one the operator's shell finds), its
 * `--version` against the adapter's pins, and every flag the adapter sends against the flags the
 * binary lists.
 */
export function diagnoseAdapter(adapter: HarnessAdapter, home: string | undefined, timeoutMs = 10_000): DoctorReport {
  if (!adapter.childPath) throw new DoctorRefusal('VH_NO_CHILD_PATH', `the ${adapter.id} adapter declares no child PATH, so there is no binary a spawn would execute to ask`)
  const path = adapter.childPath(home)
  const program = resolveOnPath(adapter.program, path)
  if (!program) {
    throw new DoctorRefusal(
      'VH_NOT_ON_PATH',
      `${adapter.program} is not on the child's PATH (${path}); one the operator's own shell finds elsewhere would not help, because no spawned run could execute it`,
    )
  }
  const env = { PATH: path }
  const version = spawnSync(program, ['--version'], { encoding: 'utf8', env, timeout: timeoutMs })
  if (version.error || version.status !== 0) {
    const why = version.error ? version.error.message : `exited ${version.status ?? `on ${version.signal ?? 'a signal'}`}: ${version.stderr.trim()}`
    throw new DoctorRefusal('VH_VERSION_FAILED', `${program} --version could not answer: ${why}`)
  }
  const reported = version.stdout.trim()
  const pinned = adapter.capabilities().versions_pinned
  const token = versionToken(reported)
  let undeclaredFlags: string[] | undefined
  if (adapter.flagSurface) {
    const helpArgs = [...adapter.flagSurface.helpArgs]
    const help = spawnSync(program, helpArgs, { encoding: 'utf8', env, timeout: timeoutMs })
    if (help.error || help.status !== 0) {
      throw new DoctorRefusal('VH_HELP_FAILED', `${program} ${helpArgs.join(' ')} could not list its flags: ${help.error?.message ?? `exited ${help.status ?? help.signal}`}`)
    }
    const text = `${help.stdout}\n${help.stderr}`
    undeclaredFlags = adapter.flagSurface.flags.filter((flag) => !declares(text, flag))
  }
  return { label: adapter.program, program, version: token, reported, pinned, onPin: pinned.includes(token), undeclaredFlags }
}

/** The lines a person reads, as upstream's doctor prints them. */
export function renderDoctorReport(report: DoctorReport): string[] {
  const pins = report.pinned.join(', ')
  const lines = [
    report.onPin
      ? `${report.label}: ${report.program} ${report.version} — on the adapter's pin (${pins})`
      : `${report.label}: ${report.program} ${report.version} — OFF the adapter's pin (${pins}). Every version-pinned claim this adapter makes was read from ${pins} and is unverified here`,
  ]
  if (report.undeclaredFlags === undefined) lines.push(`${report.label}: the adapter declares no flag surface, so no flag was checked`)
  else if (report.undeclaredFlags.length === 0) lines.push(`${report.label}: every flag the adapter sends is one the binary declares`)
  else for (const flag of report.undeclaredFlags) lines.push(`${report.label}: the adapter sends ${flag}, and the binary does not declare it`)
  // The version and the program are what the binary printed.
  return lines.map(escapeForTerminal)
}

/** Healthy: on a pin, and no flag the binary does not declare. */
export function isHealthy(report: DoctorReport): boolean {
  return report.onPin && (report.undeclaredFlags ?? []).length === 0
}
