/**
 * Claude Code's answer to a shell call it ran in the background (`Bash {run_in_background: true}`,
 * or a command it moved there): "Command running in background with ID: …", with the task's id in
 * `tool_use_result.backgroundTaskId`. The answer says the command started, not how it ended; its
 * end is a later record (`system/task_notification`, a `BashOutput` or `TaskOutput` call) or none.
 */
function answersFromBackground(toolUseResult: unknown): boolean {
  if (toolUseResult === null || typeof toolUseResult !== 'object' || Array.isArray(toolUseResult)) return false
  const id = (toolUseResult as Record<string, unknown>)['backgroundTaskId']
  return typeof id === 'string' && id.length > 0
}

/**
 * Whether a tool result failed, as upstream's direct reader reads Claude Code (it writes the flag
 * only where it is true: absent is success), but for a command started in the background, whose
 * answer tells only that it started, `false` or not: how it ended is unsaid (null).
 */
export function claudeResultFailed(flag: boolean | null | undefined, toolUseResult: unknown): boolean | null {
  if (flag === true) return true
  return answersFromBackground(toolUseResult) ? null : (flag ?? false)
}
