import type { Capabilities } from '../../../adapters/types.js'
import { isWellFormedDecision, refusedOutcome, type Command, type CommandOutcome } from '../../events/command.js'

/**
 * The answer a command gets before any run state is consulted, or undefined when it may go on:
 * a malformed command is `MALFORMED` on every adapter (checked first, so a caller is sent to the
 * right fix), and a command the declaration does not honour is refused with its declared code —
 * an unlisted command is `UNSUPPORTED_CONTROL`, because an adapter that never mentioned a command
 * cannot be assumed to deliver it.
 */
export function gateCommand(capabilities: Capabilities, command: Command): CommandOutcome | undefined {
  if (command.command === 'tool.decide' && !isWellFormedDecision(command.decision)) {
    return refusedOutcome(
      'MALFORMED',
      'a deny must carry a non-empty reason: the reason is the only part the model can act on, and it is the difference between a wall and an instruction',
    )
  }
  const support = capabilities.commands[command.command] ?? { refused: 'UNSUPPORTED_CONTROL' }
  if (support !== 'honoured') {
    const code = support.refused
    const known = code === 'UNSUPPORTED_CONTROL' || code === 'UNKNOWN_CALL' || code === 'TOO_LATE' || code === 'MALFORMED' || code === 'SHADOWED'
    return refusedOutcome(known ? code : 'UNSUPPORTED_CONTROL', `the ${capabilities.adapter.id} adapter cannot honour ${command.command}`)
  }
  return undefined
}
