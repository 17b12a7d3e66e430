import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// Gemini CLI's tools that run a command line.
const SHELL_TOOLS = new Set(['run_shell_command'])

interface ConversationRecord {
  messages?: { type?: string; toolCalls?: { id?: string; name?: string }[] }[]
}

/** Every entry of every `gemini` message's `toolCalls`, by plain JSON reading. */
function count(path: string): RawCount {
  const conversation = JSON.parse(readFileSync(path, 'utf8')) as ConversationRecord
  const shellCallIds: string[] = []
  let calls = 0
  for (const message of conversation.messages ?? []) {
    if (message.type !== 'gemini') continue
    for (const call of message.toolCalls ?? []) {
      calls += 1
      if (SHELL_TOOLS.has(call.name ?? '')) shellCallIds.push(call.id ?? '')
    }
  }
  return { calls, shellCallIds }
}

describeWildFormat({ folder: 'gemini-session', format: 'gemini-cli/session-json', count })
