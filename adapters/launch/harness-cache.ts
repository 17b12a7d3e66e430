import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, statfsSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { LaunchDeclaration } from './declaration.js'

/** Why a harness binary could not be put in the cache. */
export class HarnessInstallError extends Error {
  constructor(
    readonly code: 'VH_HARNESS_NOT_INSTALLABLE' | 'VH_HARNESS_DISK_FULL' | 'VH_HARNESS_INSTALL_FAILED',
    /** The cache directory the install was aimed at. */
    readonly location: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${code} at ${location}: ${message}`, options)
    this.name = 'HarnessInstallError'
  }
}

/** A harness's npm install is a few hundred MB; ask for a margin above the largest seen (~400 MB). */
export const HARNESS_INSTALL_BYTES = 450 * 1024 * 1024

/** `${XDG_CACHE_HOME:-$HOME/.cache}/vitest-harness/harnesses`: outside any clone, reused by later runs. */
export function harnessCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'vitest-harness', 'harnesses')
}

/** `<cache>/<package's last segment>@<version>`: `@anthropic-ai/claude-code@2.1.328` → `claude-code@2.1.328`. */
export function harnessInstallDir(declaration: LaunchDeclaration, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const install = declaration.install
  if (!install) return undefined
  const name = install.package.split('/').pop() as string
  return join(harnessCacheDir(env), `${name}@${install.version}`)
}

/** The cached binary for a declaration, when it is installed; undefined otherwise (nothing is installed). */
export function cachedHarnessBinary(declaration: LaunchDeclaration, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = harnessInstallDir(declaration, env)
  if (!dir) return undefined
  const binary = join(dir, 'node_modules', '.bin', declaration.binary)
  return existsSync(binary) ? binary : undefined
}

/** One npm package at one version, installed under its own cache folder (`<cache>/<name>@<version>`). */
interface CachedPackage {
  readonly package: string
  readonly version: string
  /** What needs it, for messages: `the pi launch`. */
  readonly owner: string
  /** The file under the install folder that proves the install finished. */
  readonly proof: string
}

function packageDir(pkg: { package: string; version: string }, env: NodeJS.ProcessEnv): string {
  const name = pkg.package.split('/').pop() as string
  return join(harnessCacheDir(env), `${name}@${pkg.version}`)
}

/** `npm install --prefix <dir>` with the disk checked first; coded refusals, never a bare npm error. */
function installPackage(pkg: CachedPackage, env: NodeJS.ProcessEnv): string {
  const dir = packageDir(pkg, env)
  const proof = join(dir, pkg.proof)
  if (existsSync(proof)) return proof
  mkdirSync(dir, { recursive: true })
  const stats = statfsSync(dir)
  const free = stats.bavail * stats.bsize
  if (free < HARNESS_INSTALL_BYTES) {
    const mib = (bytes: number): string => (bytes / 1048576).toFixed(0)
    throw new HarnessInstallError(
      'VH_HARNESS_DISK_FULL',
      dir,
      `cannot install ${pkg.package}@${pkg.version} for ${pkg.owner}: ${mib(free)} MiB free, about ${mib(HARNESS_INSTALL_BYTES)} MiB needed. Free some disk or point XDG_CACHE_HOME at a larger volume`,
    )
  }
  try {
    // The child sees the caller's PATH (where npm is) and nothing the cache location does not need.
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${pkg.package}@${pkg.version}`], { stdio: 'pipe', env: { ...process.env, ...env } })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8').trim().split('\n').slice(-3).join(' ') ?? ''
    const reason = stderr || (error as Error).message
    throw new HarnessInstallError('VH_HARNESS_INSTALL_FAILED', dir, `npm could not install the pinned ${pkg.package}@${pkg.version} for ${pkg.owner} (is it still published?): ${reason}`, { cause: error })
  }
  if (!existsSync(proof)) throw new HarnessInstallError('VH_HARNESS_INSTALL_FAILED', dir, `installed ${pkg.package}@${pkg.version}, but ${pkg.proof} is missing`)
  return proof
}

function runtimePackage(declaration: LaunchDeclaration): CachedPackage | undefined {
  const runtime = declaration.runtime
  if (!runtime) return undefined
  return { package: runtime.package, version: runtime.version, owner: `the ${declaration.adapter} launch (it needs node ${runtime.engines})`, proof: join('node_modules', runtime.package, 'bin', 'node') }
}

/**
 * The bin directory `{nodeBin}` names for a declaration: its declared runtime's (installed on first
 * use into the harness cache), else the running node's.
 */
export function ensureHarnessRuntime(declaration: LaunchDeclaration, env: NodeJS.ProcessEnv = process.env): string {
  const runtime = runtimePackage(declaration)
  return runtime ? dirname(installPackage(runtime, env)) : dirname(process.execPath)
}

/** The declared runtime's bin directory when it is cached (nothing is installed), else the running node's; undefined when declared but missing. */
export function cachedHarnessRuntime(declaration: LaunchDeclaration, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const runtime = runtimePackage(declaration)
  if (!runtime) return dirname(process.execPath)
  const node = join(packageDir(runtime, env), runtime.proof)
  return existsSync(node) ? dirname(node) : undefined
}

/**
 * The declaration's pinned binary, installed on first use with `npm install --prefix <dir>` — never a
 * dependency of the project — together with the runtime it declares. Refuses (coded) when the
 * declaration names no package, the disk is short, or npm cannot install the pin.
 */
export function ensureHarnessBinary(declaration: LaunchDeclaration, env: NodeJS.ProcessEnv = process.env): string {
  const install = declaration.install
  if (!install) {
    throw new HarnessInstallError('VH_HARNESS_NOT_INSTALLABLE', declaration.adapter, `the ${declaration.adapter} launch names no package to install ${declaration.binary} from`)
  }
  ensureHarnessRuntime(declaration, env)
  return installPackage({ package: install.package, version: install.version, owner: `the ${declaration.adapter} launch`, proof: join('node_modules', '.bin', declaration.binary) }, env)
}
