import type { HarnessAdapter } from '../../adapters/adapter.js'
import { adapterIds, findAdapter } from '../../adapters/registry.js'
import { UsageError, type ParsedArgs } from './args.js'

/** The one `<adapter>` positional of `contract`, `capabilities` and `doctor`, resolved in the registry. */
export function adapterArgument(args: ParsedArgs, command: string): HarnessAdapter {
  const [id, ...rest] = args.positionals
  if (id === undefined) throw new UsageError(`${command} needs an adapter (one of ${adapterIds().join(', ')})`)
  if (rest.length > 0) throw new UsageError(`${command} takes one adapter; got ${args.positionals.length}`)
  const adapter = findAdapter(id)
  if (!adapter) throw new UsageError(`unknown adapter ${JSON.stringify(id)}; one of ${adapterIds().join(', ')}`)
  return adapter
}
