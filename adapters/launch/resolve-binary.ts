import { dirname } from 'node:path'
import { resolveOnPath, resolveProgram } from '../shared/resolve-program.js'
import type { LaunchDeclaration } from './declaration.js'
import { cachedHarnessBinary } from './harness-cache.js'
import { substitutePlaceholders } from './plan.js'

/** Where the binary a run would execute was found. */
export type BinarySource = 'program' | 'cache' | 'path'

export interface ResolvedBinary {
  readonly path: string
  readonly source: BinarySource
}

export interface ResolveBinaryOptions {
  /** `--program`: a path, or a name looked up on the child's PATH. */
  readonly program?: string | undefined
  /** Extra directories searched before the declared PATH (an adapter's operator PATH, e.g. `~/.local/bin`). */
  readonly searchPath?: string | undefined
  readonly env?: NodeJS.ProcessEnv
  /** `{nodeBin}` of the child's PATH. Default: the running node's directory. */
  readonly nodeBin?: string
}

/** The PATH a declared launch constructs for its child, `{nodeBin}` filled. */
export function declaredChildPath(declaration: LaunchDeclaration, nodeBin: string = dirname(process.execPath)): string {
  return substitutePlaceholders(declaration.env['PATH'] ?? '', { nodeBin })
}

/**
 * The binary a run of this launch executes: `--program` first, then the pinned binary in the
 * harness cache, then the child's constructed PATH — never the operator's shell PATH, which no
 * spawned run sees. Undefined when none of the three has it.
 */
export function resolveHarnessBinary(declaration: LaunchDeclaration, options: ResolveBinaryOptions = {}): ResolvedBinary | undefined {
  const path = [options.searchPath, declaredChildPath(declaration, options.nodeBin)].filter((part) => part).join(':')
  if (options.program !== undefined) {
    const found = resolveProgram(options.program, path)
    return found ? { path: found, source: 'program' } : undefined
  }
  const cached = cachedHarnessBinary(declaration, options.env)
  if (cached) return { path: cached, source: 'cache' }
  const onPath = resolveOnPath(declaration.binary, path)
  return onPath ? { path: onPath, source: 'path' } : undefined
}
