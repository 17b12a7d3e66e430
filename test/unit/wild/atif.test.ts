import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

/**
 * The ATIF corpus (Harbor's golden trajectories, v1.2–v1.7, and Harbor job output of OpenClaw
 * runs), counted from the raw JSON: every
 * entry of `steps[].tool_calls`, and, for a step that has none, the actions its agent wrote in the
 * message instead (terminus-2's raw-content JSON commands, OpenHands' `<function=…>` text), which
 * the RFC calls actions outside the standard tool-calling format. Steps marked
 * `is_copied_context` are left out: the RFC says they are "not a new interaction".
 */

/** Each agent's shell tools, by the names its trajectories use (written here, not taken from the adapter). */
const SHELL_TOOLS: Record<string, readonly string[]> = {
  'terminus-2': ['bash_command'],
  openhands: ['execute_bash', 'execute_ipython_cell'],
  'claude-code': ['Bash'],
  codex: ['exec_command', 'shell', 'shell_command'],
  'mini-swe-agent': ['bash'],
  // `process` types into (or polls) the session an `exec` left running, as Codex's `write_stdin` does.
  openclaw: ['exec', 'process'],
}

type Json = Record<string, unknown>

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The agent family whose names a trajectory uses: terminus-2's summarization subagents use terminus-2's. */
function familyOf(agentName: string): string {
  return agentName.startsWith('terminus-2') ? 'terminus-2' : agentName
}

/** The tool names of the actions a step with no tool_calls wrote in its message. */
function messageActions(family: string, message: unknown): string[] {
  if (typeof message !== 'string') return []
  if (family === 'terminus-2') {
    try {
      const answer: unknown = JSON.parse(message.trim())
      const commands = isJson(answer) && Array.isArray(answer['commands']) ? answer['commands'] : []
      return commands.filter((command) => isJson(command) && typeof command['keystrokes'] === 'string').map(() => 'bash_command')
    } catch {
      return []
    }
  }
  if (family === 'openhands') return [...message.matchAll(/<function=([^>\s]+)>[\s\S]*?<\/function>/g)].map((match) => match[1] as string)
  return []
}

/**
 * OpenClaw's result steps name their call in `extra.tool_call_id` and keep an `exec`'s exit code and
 * status beside an `isError` that stays false for a command that exited nonzero: such a call failed.
 */
function openClawExecFailed(step: Json, shell: readonly string[]): string | undefined {
  const extra = isJson(step['extra']) ? step['extra'] : {}
  const id = extra['tool_call_id']
  if (typeof id !== 'string' || !shell.includes(id)) return undefined
  const code = extra['exec_exit_code']
  return (typeof code === 'number' && code !== 0) || extra['exec_status'] === 'failed' ? id : undefined
}

function countTrajectory(trajectory: Json, calls: { n: number }, shell: string[], failed: string[]): void {
  const agent = isJson(trajectory['agent']) ? trajectory['agent'] : {}
  const family = familyOf(typeof agent['name'] === 'string' ? agent['name'] : '')
  const shellTools = SHELL_TOOLS[family] ?? []
  const steps = Array.isArray(trajectory['steps']) ? trajectory['steps'] : []
  steps.forEach((step, index) => {
    if (!isJson(step) || step['is_copied_context'] === true || step['source'] !== 'agent') return
    const failedCall = family === 'openclaw' ? openClawExecFailed(step, shell) : undefined
    if (failedCall !== undefined) failed.push(failedCall)
    const toolCalls = Array.isArray(step['tool_calls']) ? step['tool_calls'] : []
    for (const call of toolCalls) {
      calls.n += 1
      if (isJson(call) && shellTools.includes(String(call['function_name']))) shell.push(String(call['tool_call_id']))
    }
    if (toolCalls.length > 0) return
    const stepId = typeof step['step_id'] === 'number' ? step['step_id'] : index + 1
    messageActions(family, step['message']).forEach((name, actionIndex) => {
      calls.n += 1
      if (shellTools.includes(name)) shell.push(`step-${stepId}-action-${actionIndex + 1}`)
    })
  })
  for (const subagent of Array.isArray(trajectory['subagent_trajectories']) ? trajectory['subagent_trajectories'] : []) {
    if (isJson(subagent)) countTrajectory(subagent, calls, shell, failed)
  }
}

function count(path: string): RawCount {
  const trajectory: unknown = JSON.parse(readFileSync(path, 'utf8'))
  const calls = { n: 0 }
  const shellCallIds: string[] = []
  const failedShellCallIds: string[] = []
  if (isJson(trajectory)) countTrajectory(trajectory, calls, shellCallIds, failedShellCallIds)
  return { calls: calls.n, shellCallIds, failedShellCallIds }
}

describeWildFormat({ folder: 'atif', format: 'atif-json', count })
