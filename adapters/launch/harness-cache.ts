import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, statfsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
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

/**
 * The declaration's pinned binary, installed on first use with `npm install --prefix <dir>` — never a
 * dependency of the project. Refuses (coded) when the declaration names no package or the disk is short.
 */
export function ensureHarnessBinary(declaration: LaunchDeclaration, env: NodeJS.ProcessEnv = process.env): string {
  const dir = harnessInstallDir(declaration, env)
  const install = declaration.install
  if (!dir || !install) {
    throw new HarnessInstallError('VH_HARNESS_NOT_INSTALLABLE', declaration.adapter, `the ${declaration.adapter} launch names no package to install ${declaration.binary} from`)
  }
  const cached = cachedHarnessBinary(declaration, env)
  if (cached) return cached
  mkdirSync(dir, { recursive: true })
  const stats = statfsSync(dir)
  const free = stats.bavail * stats.bsize
  if (free < HARNESS_INSTALL_BYTES) {
    const mib = (bytes: number): string => (bytes / 1048576).toFixed(0)
    throw new HarnessInstallError(
      'VH_HARNESS_DISK_FULL',
      dir,
      `cannot install ${install.package}@${install.version}: ${mib(free)} MiB free, about ${mib(HARNESS_INSTALL_BYTES)} MiB needed. Free some disk or point XDG_CACHE_HOME at a larger volume`,
    )
  }
  try {
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${install.package}@${install.version}`], { stdio: 'pipe' })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8').trim().split('\n').slice(-3).join(' ') ?? ''
    throw new HarnessInstallError('VH_HARNESS_INSTALL_FAILED', dir, `npm could not install the pinned ${install.package}@${install.version} (is it still published?): ${stderr}`, { cause: error })
  }
  const binary = cachedHarnessBinary(declaration, env)
  if (!binary) throw new HarnessInstallError('VH_HARNESS_INSTALL_FAILED', dir, `installed ${install.package}@${install.version}, but node_modules/.bin/${declaration.binary} is missing`)
  return binary
}
