import { callArgument } from '../../ir/call.js'
import type { ToolCall } from '../../ir/types.js'

/** Programs a shell line prints a file with: such a line naming a skill's `SKILL.md` reads it. */
const FILE_PRINTERS = new Set(['cat', 'head', 'tail', 'sed', 'less', 'more', 'nl', 'bat'])

/**
 * How a call loads a skill. Harnesses differ:
 *
 * - Claude Code's `Skill` `{skill}` (upstream's only way) and Qwen Code's `skill` `{skill}`;
 * - opencode's `skill` and Gemini CLI's `activate_skill` `{name}`. Each tool table classifies
 *   these `skill.load`;
 * - pi and Codex have no skill tool. Their prompt lists each skill's `SKILL.md`, and the model
 *   reads it: pi with `read`, Codex with a shell line (`cat …/greet/SKILL.md`).
 *
 * A skill's `SKILL.md` is in a directory named after the skill, so a read of
 * `…/<skill>/SKILL.md` loads that skill.
 */
export function loadsSkill(call: ToolCall, skill: string): boolean {
  if (call.name === 'Skill') return callArgument(call, 'skill') === skill
  if (call.operations.includes('skill.load')) return callArgument(call, 'skill') === skill || callArgument(call, 'name') === skill
  const file = `${skill}/SKILL.md`
  const isSkillFile = (path: string) => path === file || path.endsWith(`/${file}`)
  if (call.operations.includes('file.read')) return call.subjects.some((subject) => subject.startsWith('file:') && isSkillFile(subject.slice(5)))
  if (!call.operations.includes('shell') || !call.subjects.some((subject) => subject.startsWith('proc:') && FILE_PRINTERS.has(subject.slice(5)))) return false
  const command = callArgument(call, 'command')
  return typeof command === 'string' && command.split(/[\s'"=<>|;&()]+/).some(isSkillFile)
}

/** Whether the call is the skill tool whose result says how it went (`commandName`, `success`): Claude Code's. */
export function reportsSkillCompletion(call: ToolCall): boolean {
  return call.name === 'Skill'
}
