import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// hermes-agent's tools that run a command line or a program: `terminal`, and `execute_code`
// (a Python script run in a subprocess).
const SHELL_TOOLS = new Set(['terminal', 'execute_code'])

interface ChatMessage {
  role?: string
  tool_calls?: { id?: string; function?: { name?: string } }[]
}

/** Every entry of every assistant message's `tool_calls`, by plain JSON reading. */
function count(path: string): RawCount {
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as { messages?: ChatMessage[] }
  const shellCallIds: string[] = []
  let calls = 0
  for (const message of snapshot.messages ?? []) {
    if (message.role !== 'assistant') continue
    for (const call of message.tool_calls ?? []) {
      calls += 1
      if (SHELL_TOOLS.has(call.function?.name ?? '')) shellCallIds.push(call.id ?? '')
    }
  }
  return { calls, shellCallIds }
}

describeWildFormat({ folder: 'hermes', format: 'hermes-session-json', count })
