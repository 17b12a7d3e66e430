import { resolveProgram } from '../shared/resolve-program.js'
import type { LaunchPlan } from '../types.js'
import { B10X_PROGRAM } from './declaration.js'

/** The PATH a b10x child gets before `HOME`'s own bin directory is prepended. */
const BASE_PATH = '/usr/local/bin:/usr/bin:/bin'

/** Where the loop reads its bearer: always named, never ambient. */
export type B10xCredential =
  | { kind: 'api-key-file'; path: string }
  | { kind: 'api-key-env'; name: string }
  | { kind: 'oauth-token-file'; path: string; pointer?: string }
  | { kind: 'oauth-token-env'; name: string; pointer?: string }

/** Where the run may write and execute; without one the catalogue is read-only. */
export type B10xConfinement = { kind: 'daemon'; socket: string } | { kind: 'embedded'; root: string }

/** One launch of `b10x-harness run`. */
export interface B10xLaunchInputs {
  /** The binary, by path or by name on the child's PATH. Default: `b10x-harness`. */
  program?: string
  /** Endpoint origin plus API prefix, e.g. `http://127.0.0.1:PORT/v1`. */
  baseUrl: string
  model: string
  workspace: string
  /** The request. Written last, because it is the one argument that can look like a flag. */
  input: string
  /** The operator's HOME, whose `.local/bin` leads the child's PATH. */
  home?: string
  /** The run's scratch root; the child's `XDG_CONFIG_HOME` is `<scratch>/config`. */
  scratch: string
  credential?: B10xCredential
  wire?: 'openai-responses' | 'anthropic-messages'
  hooks?: string
  toolchain?: string
  driver?: string
  /** `<glob>=<allowed|partial-only|denied>`, first match wins, in order. */
  writeScope?: string[]
  scopeSilent?: boolean
  context?: string[]
  prices?: string
  confinement?: B10xConfinement
  cgroupRoot?: string
  allowProgram?: string[]
  maxTurns?: number
}

/** The child's PATH given the HOME it runs with. */
export function b10xChildPath(home?: string): string {
  return home ? `${home}/.local/bin:${BASE_PATH}` : BASE_PATH
}

/**
 * The launch record for fixed inputs: `{program, args, env}` with an environment constructed
 * from nothing (exactly `PATH` and `XDG_CONFIG_HOME`), never inherited.
 */
export function planB10xLaunch(inputs: B10xLaunchInputs): LaunchPlan {
  const path = b10xChildPath(inputs.home)
  const named = inputs.program ?? B10X_PROGRAM
  const program = resolveProgram(named, path) ?? named
  const args = [
    'run',
    '--base-url',
    inputs.baseUrl,
    '--model',
    inputs.model,
    '--workspace',
    inputs.workspace,
    '--execution-path',
    'metaharness',
    '--json',
    // No session file: each launch must be reproducible from its flags alone.
    '--no-session',
    // The ceiling, not --yes: destructive calls above `high` still go to the approver.
    '--approve-up-to',
    'high',
  ]
  if (inputs.hooks) args.push('--hooks', inputs.hooks)
  const credential = inputs.credential
  if (credential) {
    switch (credential.kind) {
      case 'api-key-file':
        args.push('--api-key-file', credential.path)
        break
      case 'api-key-env':
        args.push('--api-key-env', credential.name)
        break
      case 'oauth-token-file':
        args.push('--oauth-token-file', credential.path)
        if (credential.pointer) args.push('--oauth-token-pointer', credential.pointer)
        break
      case 'oauth-token-env':
        args.push('--oauth-token-env', credential.name)
        if (credential.pointer) args.push('--oauth-token-pointer', credential.pointer)
        break
    }
  }
  if (inputs.wire) args.push('--wire', inputs.wire)
  if (inputs.toolchain) args.push('--toolchain', inputs.toolchain)
  if (inputs.driver) args.push('--driver', inputs.driver)
  for (const rule of inputs.writeScope ?? []) args.push('--write-scope', rule)
  if (inputs.scopeSilent) args.push('--scope-announce', 'silent')
  for (const file of inputs.context ?? []) args.push('--context', file)
  if (inputs.prices) args.push('--prices', inputs.prices)
  if (inputs.confinement?.kind === 'daemon') args.push('--substrate', inputs.confinement.socket)
  // The embedded driver takes no value: the loop derives its root from --workspace.
  if (inputs.confinement?.kind === 'embedded') args.push('--substrate-embedded')
  if (inputs.cgroupRoot) args.push('--cgroup-root', inputs.cgroupRoot)
  for (const allowed of inputs.allowProgram ?? []) args.push('--allow-program', allowed)
  if (inputs.maxTurns !== undefined) args.push('--max-turns', String(inputs.maxTurns))
  args.push('--input', inputs.input)
  return { program, args, env: { PATH: path, XDG_CONFIG_HOME: `${inputs.scratch}/config` } }
}
