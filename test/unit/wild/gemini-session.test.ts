import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// Gemini CLI's tools that run a command line.
const SHELL_TOOLS = new Set(['run_shell_command'])

interface ConversationRecord {
  messages?: { type?: string; toolCalls?: { id?: string; name?: string; result?: { functionResponse?: { response?: { output?: unknown } } }[] }[] }[]
}

/** Whether a shell call's answer names a nonzero exit code (`Exit Code: 2`, a line of its own). */
function exitedNonzero(call: NonNullable<NonNullable<ConversationRecord['messages']>[number]['toolCalls']>[number]): boolean {
  return (call.result ?? []).some((part) => {
    const output = part.functionResponse?.response?.output
    return typeof output === 'string' && /^Exit Code: -?[1-9][0-9]*$/m.test(output)
  })
}

/** Every entry of every `gemini` message's `toolCalls`, by plain JSON reading. */
function count(path: string): RawCount {
  const conversation = JSON.parse(readFileSync(path, 'utf8')) as ConversationRecord
  const shellCallIds: string[] = []
  const failedShellCallIds: string[] = []
  let calls = 0
  for (const message of conversation.messages ?? []) {
    if (message.type !== 'gemini') continue
    for (const call of message.toolCalls ?? []) {
      calls += 1
      if (!SHELL_TOOLS.has(call.name ?? '')) continue
      shellCallIds.push(call.id ?? '')
      if (exitedNonzero(call)) failedShellCallIds.push(call.id ?? '')
    }
  }
  return { calls, shellCallIds, failedShellCallIds }
}

describeWildFormat({ folder: 'gemini-session', format: 'gemini-cli/session-json', count })
