import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// hermes-agent's tools that run a command line or a program: `terminal`, and `execute_code`
// (a Python script run in a subprocess).
const SHELL_TOOLS = new Set(['terminal', 'execute_code'])

interface ChatMessage {
  role?: string
  tool_calls?: { id?: string; function?: { name?: string } }[]
  tool_call_id?: string
  content?: unknown
}

/** A `terminal` answer's exit code where hermes gives it no meaning (an empty grep's 1 is "not an error"). */
function unexplainedExit(content: unknown): number | undefined {
  try {
    const answer = JSON.parse(String(content)) as { exit_code?: unknown; exit_code_meaning?: unknown }
    return typeof answer.exit_code === 'number' && answer.exit_code_meaning === undefined ? answer.exit_code : undefined
  } catch {
    return undefined
  }
}

/** Every entry of every assistant message's `tool_calls`, by plain JSON reading; a shell call failed when its `terminal` answer names a nonzero exit code hermes gives no meaning. */
function count(path: string): RawCount {
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as { messages?: ChatMessage[] }
  const shellCallIds: string[] = []
  const failedShellCallIds: string[] = []
  let calls = 0
  for (const message of snapshot.messages ?? []) {
    const code = message.role === 'tool' && shellCallIds.includes(message.tool_call_id ?? '') ? unexplainedExit(message.content) : undefined
    if (code !== undefined && code !== 0) failedShellCallIds.push(message.tool_call_id ?? '')
    if (message.role !== 'assistant') continue
    for (const call of message.tool_calls ?? []) {
      calls += 1
      if (SHELL_TOOLS.has(call.function?.name ?? '')) shellCallIds.push(call.id ?? '')
    }
  }
  return { calls, shellCallIds, failedShellCallIds }
}

describeWildFormat({ folder: 'hermes', format: 'hermes-session-json', count })
