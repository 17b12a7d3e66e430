import { spawnSync } from 'node:child_process'
import { dirname } from 'node:path'
import { escapeForTerminal } from '../util/terminal-text.js'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import { LOOPBACK_PLACEHOLDER_KEY, type LaunchDeclaration, type Wire } from '../../adapters/launch/declaration.js'
import { findLaunch, launchIds } from '../../adapters/launch/launches.js'
import { adapterIds, findAdapter } from '../../adapters/registry.js'
import { planWithPlaceholders } from '../../adapters/launch/plan.js'
import { cachedHarnessRuntime } from '../../adapters/launch/harness-cache.js'
import { declaredChildPath, resolveHarnessBinary, type BinarySource } from '../../adapters/launch/resolve-binary.js'
import { resolveOnPath, resolveProgram } from '../../adapters/shared/resolve-program.js'
import type { LaunchPlan } from '../../adapters/types.js'

/** Why `doctor` could not find out: never a verdict about the binary (exit 2). */
export class DoctorRefusal extends Error {
  constructor(
    readonly code: 'VH_NO_CHILD_PATH' | 'VH_NOT_ON_PATH' | 'VH_VERSION_FAILED' | 'VH_HELP_FAILED' | 'VH_HARNESS_RUNTIME_MISSING',
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
  /** The absolute path of the binary a spawn would execute. */
  readonly program: string
  /** Where it was found: `--program`, the harness cache, or the child's PATH. */
  readonly source: BinarySource
  /** The version token of what the binary reported. */
  readonly version: string
  /** Exactly what `--version` printed, trimmed. */
  readonly reported: string
  readonly pinned: readonly string[]
  readonly onPin: boolean
  /** Flags the adapter sends that the binary does not declare; `undefined` when the adapter declares no flag surface. */
  readonly undeclaredFlags: readonly string[] | undefined
  /** The wires the launch binds to a loopback provider; empty for an adapter with no launch declaration. */
  readonly wires: readonly Wire[]
  /** Per wire, the argv and environment the launch would set, placeholders left in and credentials masked. */
  readonly launches: readonly { readonly wire: Wire; readonly plan: LaunchPlan }[]
}

export interface DoctorOptions {
  /** `--program`: the binary to ask instead of the harness cache and the child's PATH. */
  program?: string | undefined
  /** Where the harness cache is found (`XDG_CACHE_HOME`, `HOME`). Default: `process.env`. */
  env?: NodeJS.ProcessEnv
  /** `{nodeBin}` of the child's PATH. Default: the running node's directory. */
  nodeBin?: string
}

/** The version out of a banner: the first whitespace-separated token that starts with a digit. */
export function versionToken(reported: string): string {
  return reported.split(/\s+/).find((token) => /^[0-9]/.test(token)) ?? reported
}

function declares(help: string, flag: string): boolean {
  const escaped = flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[\\s,[(|])${escaped}(?=$|[\\s,=\\])|<])`, 'm').test(help)
}

/** How long `--version`/`--help` may take: a node harness's first start on a cold disk (pi under its Node 22) can pass 10 s. */
const DOCTOR_TIMEOUT_MS = 30_000

/** A value no report prints: the loopback placeholder by name, anything else credential-shaped masked. */
function maskCredential(name: string, value: string): string {
  if (value === LOOPBACK_PLACEHOLDER_KEY) return '<loopback placeholder, not a credential>'
  return /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH/i.test(name) && !value.startsWith('{') ? '<masked>' : value
}

function launchesOf(declaration: LaunchDeclaration | undefined, nodeBin: string): DoctorReport['launches'] {
  if (!declaration) return []
  return (Object.keys(declaration.bindings) as Wire[]).map((wire) => {
    const plan = planWithPlaceholders(declaration, wire, nodeBin)
    const env = Object.fromEntries(Object.entries(plan.env).map(([name, value]) => [name, maskCredential(name, value)]))
    return { wire, plan: { ...plan, env } }
  })
}

/**
 * Asks the binary a spawn would execute what it is, for free: `--program`, else the pinned binary in
 * the harness cache, else the first on the **child's** constructed PATH (not the operator's shell
 * PATH, which no spawned run sees); its `--version` against the launch's pin; every flag the adapter
 * sends against the flags the binary lists; the wires and what each launch would set.
 */
export function diagnoseAdapter(adapter: HarnessAdapter, home: string | undefined, timeoutMs = DOCTOR_TIMEOUT_MS, options: DoctorOptions = {}): DoctorReport {
  return diagnose(subjectOfAdapter(adapter), home, timeoutMs, options)
}

/** What doctor asks about: an adapter's facts, or a launch declaration's alone (a harness with no reader yet). */
interface DoctorSubject {
  readonly id: string
  readonly program: string
  readonly declaration: LaunchDeclaration | undefined
  readonly childPath: HarnessAdapter['childPath']
  readonly flagSurface: HarnessAdapter['flagSurface']
  readonly pins: readonly string[]
}

function subjectOfAdapter(adapter: HarnessAdapter): DoctorSubject {
  return {
    id: adapter.id,
    program: adapter.program,
    declaration: adapter.declaration ?? findLaunch(adapter.id),
    childPath: adapter.childPath,
    flagSurface: adapter.flagSurface,
    pins: adapter.capabilities().versions_pinned,
  }
}

/** Every harness doctor can ask about: each launch declaration, and each adapter that declares a child PATH. */
export function launchableHarnessIds(): string[] {
  return [...new Set([...launchIds(), ...adapterIds().filter((id) => findAdapter(id)?.childPath)])].sort()
}

/**
 * {@link diagnoseAdapter} by id: a registered adapter, or a launch declaration alone (pi, opencode…
 * are launchable before their readers are adapters), so every launchable harness has a doctor.
 */
export function diagnoseHarness(id: string, home: string | undefined, timeoutMs = DOCTOR_TIMEOUT_MS, options: DoctorOptions = {}): DoctorReport {
  const adapter = findAdapter(id)
  if (adapter) return diagnoseAdapter(adapter, home, timeoutMs, options)
  const declaration = findLaunch(id)
  if (!declaration) throw new DoctorRefusal('VH_NO_CHILD_PATH', `nothing is launchable as ${JSON.stringify(id)}; launchable: ${launchableHarnessIds().join(', ')}`)
  return diagnose({ id, program: declaration.binary, declaration, childPath: undefined, flagSurface: undefined, pins: [] }, home, timeoutMs, options)
}

/**
 * The node a launch runs on: the runtime it declares (pi's cached Node 22), or this process's own.
 * A declared runtime that is not in the cache is refused — asking the binary under the wrong node
 * would report a crash, not the harness.
 */
function runtimeBinOf(declaration: LaunchDeclaration | undefined, env: NodeJS.ProcessEnv | undefined): string {
  if (!declaration) return dirname(process.execPath)
  const bin = cachedHarnessRuntime(declaration, env ?? process.env)
  if (bin !== undefined) return bin
  const runtime = declaration.runtime
  throw new DoctorRefusal(
    'VH_HARNESS_RUNTIME_MISSING',
    `the ${declaration.adapter} launch runs on node ${runtime?.engines ?? ''} (${runtime?.package ?? ''}@${runtime?.version ?? ''}), which is not in the harness cache; the e2e suite's ensureHarnessBinary installs it`,
  )
}

/** A crashing binary's stderr is a stack; its last lines say why. */
function lastLines(text: string, count = 3): string {
  return text.trim().split('\n').slice(-count).join('\n')
}

function joinPath(...parts: (string | undefined)[]): string {
  return [...new Set(parts.flatMap((part) => (part ? part.split(':') : [])).filter((entry) => entry))].join(':')
}

function diagnose(adapter: DoctorSubject, home: string | undefined, timeoutMs: number, options: DoctorOptions): DoctorReport {
  const declaration = adapter.declaration
  const nodeBin = options.nodeBin ?? runtimeBinOf(declaration, options.env)
  if (!adapter.childPath && !declaration) {
    throw new DoctorRefusal('VH_NO_CHILD_PATH', `the ${adapter.id} adapter declares no launch and no child PATH, so there is no binary a spawn would execute to ask`)
  }
  const searchPath = adapter.childPath?.(home)
  const path = joinPath(searchPath, declaration ? declaredChildPath(declaration, nodeBin) : undefined)
  const binaryName = declaration?.binary ?? adapter.program
  const resolved = declaration
    ? resolveHarnessBinary(declaration, { program: options.program, searchPath: path, nodeBin, ...(options.env ? { env: options.env } : {}) })
    : resolveChildBinary(adapter.program, options.program, path)
  if (!resolved) {
    const named = options.program ?? binaryName
    const cache = declaration?.install ? 'not in the harness cache, and ' : ''
    throw new DoctorRefusal(
      'VH_NOT_ON_PATH',
      `${named} is ${options.program === undefined ? cache : ''}not on the child's PATH (${path}); one the operator's own shell finds elsewhere would not help, because no spawned run could execute it`,
    )
  }
  const program = resolved.path
  const env = { PATH: path }
  const version = spawnSync(program, ['--version'], { encoding: 'utf8', env, timeout: timeoutMs })
  if (version.error || version.status !== 0) {
    const why = version.error ? version.error.message : `exited ${version.status ?? `on ${version.signal ?? 'a signal'}`}: ${lastLines(version.stderr)}`
    throw new DoctorRefusal('VH_VERSION_FAILED', `${program} --version could not answer: ${why}`)
  }
  const reported = version.stdout.trim()
  // The launch declaration holds the pin a run is made against; the capability table's pins where it has none.
  const pinned = declaration?.pinnedVersion ? [declaration.pinnedVersion] : adapter.pins
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
  const launches = launchesOf(declaration, nodeBin)
  return {
    label: binaryName,
    program,
    source: resolved.source,
    version: token,
    reported,
    pinned,
    onPin: pinned.includes(token),
    undeclaredFlags,
    wires: launches.map((launch) => launch.wire),
    launches,
  }
}

function resolveChildBinary(name: string, program: string | undefined, path: string): { path: string; source: BinarySource } | undefined {
  const found = program === undefined ? resolveOnPath(name, path) : resolveProgram(program, path)
  return found ? { path: found, source: program === undefined ? 'path' : 'program' } : undefined
}

const SOURCES: Record<BinarySource, string> = {
  program: 'named by --program',
  cache: 'the pinned binary in the harness cache',
  path: "the first on the child's PATH",
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./{}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** The lines a person reads, as upstream's doctor prints them. */
export function renderDoctorReport(report: DoctorReport): string[] {
  const pins = report.pinned.join(', ')
  const lines = [
    report.onPin
      ? `${report.label}: ${report.program} ${report.version} — on the adapter's pin (${pins})`
      : `${report.label}: ${report.program} ${report.version} — OFF the adapter's pin (${pins || 'none'}). Every version-pinned claim this adapter makes was read from ${pins} and is unverified here`,
  ]
  lines.push(`${report.label}: found: ${SOURCES[report.source]} (looked for: --program, then the harness cache, then the child's PATH)`)
  lines.push(`${report.label}: wires: ${report.wires.length > 0 ? report.wires.join(', ') : 'none declared (no launch declaration)'}`)
  for (const { wire, plan } of report.launches) {
    lines.push(`${report.label}: ${wire} launch: ${[plan.program, ...plan.args].map(shellWord).join(' ')}`)
    lines.push(`${report.label}: ${wire} env: ${Object.entries(plan.env).map(([name, value]) => `${name}=${shellWord(value)}`).join(' ')}`)
  }
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
