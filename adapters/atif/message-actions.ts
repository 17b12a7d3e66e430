import { asArray, isObject, type JsonObject } from '../shared/fields.js'
import { OPENHANDS_TOOL_OPERATIONS, TERMINUS_TOOL_OPERATIONS, toolTableOfAgent } from './operations.js'

/**
 * Some agents act without the standard tool-calling format, and ATIF then records the action
 * only in the step's `message` (the RFC: an observation with no `source_call_id` "comes from an
 * action that doesn't use the standard tool calling format"). Reading those actions as the calls
 * they are keeps "no shell" from passing a run that ran commands:
 *
 * - terminus-2 in raw-content mode (Harbor's "linear history"): the message is the model's JSON
 *   answer, `{"analysis", "plan", "commands": [{"keystrokes", "duration"}], "task_complete"}`,
 *   and terminus sent each command's keystrokes to its shell (as `bash_command` in tool mode);
 * - OpenHands without function calling: the message holds CodeAct's text form,
 *   `<function=execute_bash><parameter=command>…</parameter></function>`.
 */

/** One action found in a message: the tool it used, with the arguments it gave. */
export interface MessageAction {
  readonly name: string
  readonly input: JsonObject
}

/** The tool name terminus-2 gives a command in its tool-calling mode. */
export const TERMINUS_COMMAND_TOOL = 'bash_command'

/** The id of the `index`-th (1-based) action of step `stepId`: stable, so a check can name it. */
export function messageActionId(stepId: number, index: number): string {
  return `step-${stepId}-action-${index}`
}

/** The commands of a terminus raw-content answer; none when it is not that JSON (terminus ran nothing then). */
export function terminusCommandsOf(message: string): MessageAction[] {
  const text = message.trim()
  if (!text.startsWith('{')) return []
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    return []
  }
  if (!isObject(answer)) return []
  return (asArray(answer['commands']) ?? [])
    .filter((command): command is JsonObject => isObject(command) && typeof command['keystrokes'] === 'string')
    .map((command) => ({ name: TERMINUS_COMMAND_TOOL, input: command }))
}

const OPENHANDS_FUNCTION = /<function=([^>\s]+)>([\s\S]*?)<\/function>/g
const OPENHANDS_PARAMETER = /<parameter=([^>\s]+)>([\s\S]*?)<\/parameter>/g

/** The `<function=…>` blocks of an OpenHands message written without function calling. */
export function openHandsFunctionsOf(message: string): MessageAction[] {
  const actions: MessageAction[] = []
  for (const [, name, body] of message.matchAll(OPENHANDS_FUNCTION)) {
    const input: JsonObject = {}
    for (const [, key, value] of (body as string).matchAll(OPENHANDS_PARAMETER)) input[key as string] = value
    actions.push({ name: name as string, input })
  }
  return actions
}

/** The actions an agent step of `agentName` wrote in its message (only for a step with no `tool_calls`). */
export function messageActionsOf(agentName: string | undefined, message: unknown): MessageAction[] {
  if (typeof message !== 'string') return []
  const table = toolTableOfAgent(agentName)
  if (table === TERMINUS_TOOL_OPERATIONS) return terminusCommandsOf(message)
  if (table === OPENHANDS_TOOL_OPERATIONS) return openHandsFunctionsOf(message)
  return []
}
