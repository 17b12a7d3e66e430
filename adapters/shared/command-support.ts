import { COMMAND_NAMES } from '../../src/events/format.js'
import type { CommandSupport } from '../types.js'

/** Every `metaharness.command/1` command, sorted: `honoured` where named, else refused as `UNSUPPORTED_CONTROL`. */
export function commandSupport(honoured: readonly string[]): Record<string, CommandSupport> {
  const commands: Record<string, CommandSupport> = {}
  for (const name of [...COMMAND_NAMES].sort()) commands[name] = honoured.includes(name) ? 'honoured' : { refused: 'UNSUPPORTED_CONTROL' }
  return commands
}
