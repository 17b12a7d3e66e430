import { basename, commandsOfShellLine, filesNamedBy, findStartingPoints, IN_PLACE } from '../../../../adapters/shared/shell.js'
import { findCommands } from '../../../../adapters/shared/shell-wrappers.js'
import { globMatches } from '../../spec/glob.js'
import { callArgument } from '../../ir/call.js'
import type { ToolCall } from '../../ir/types.js'

/** Programs a shell line prints a file with: one given a skill's `SKILL.md` to read loads it. */
const FILE_PRINTERS = new Set(['cat', 'head', 'tail', 'sed', 'less', 'more', 'nl', 'bat'])

/**
 * Whether a shell line prints a file `isSkillFile` accepts: a printer given it as a file to read
 * (`cat …/SKILL.md`, `sed -n '1,200p' …/SKILL.md`). A line that writes it (`cat > …/SKILL.md
 * <<'EOF'`, `sed -i`), removes it, or only names it beside a printer (`head -1 a && rm …/SKILL.md`)
 * loads nothing. `bat`'s operands no reader lists: its words are read.
 */
function printsFile(line: string, isSkillFile: (path: string) => boolean): boolean {
  return commandsOfShellLine(line).some((command) => {
    if (!FILE_PRINTERS.has(command.program)) return false
    if (command.program === 'sed' && command.args.some((arg) => IN_PLACE.test(arg))) return false
    const read = command.program === 'bat' ? command.args.filter((arg) => !arg.startsWith('-')) : filesNamedBy(command)
    return read.some(isSkillFile)
  })
}

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
  const isSkillFile = skillFileTest(skill)
  if (call.operations.includes('file.read')) return call.subjects.some((subject) => subject.startsWith('file:') && isSkillFile(subject.slice(5)))
  if (!call.operations.includes('shell') || !call.subjects.some((subject) => subject.startsWith('proc:') && FILE_PRINTERS.has(subject.slice(5)))) return false
  const command = callArgument(call, 'command')
  return typeof command === 'string' && printsFile(command, isSkillFile)
}

/** Whether a path is the skill's `…/<skill>/SKILL.md`. */
function skillFileTest(skill: string): (path: string) => boolean {
  const file = `${skill}/SKILL.md`
  return (path) => path === file || path.endsWith(`/${file}`)
}

// Searchers print the lines of a file they match, as many as they are asked for (`grep -A 50`).
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg'])
// The tests of `find` that choose files by name.
const FIND_NAME_TESTS = new Set(['-name', '-iname', '-path', '-ipath', '-wholename'])

/**
 * What a shell call that does not load the skill may still have printed of its `SKILL.md`, as
 * the words that name it: a searcher given it (`grep -A 50 '## Steps' …/SKILL.md`), or a `find`
 * that prints every file it finds by a name `SKILL.md` may have (`find .claude/skills -name
 * SKILL.md -exec cat {} \;`: everything under where it starts). Empty where it printed none.
 */
export function skillFileMaybePrinted(call: ToolCall, skill: string): string[] {
  if (!call.operations.includes('shell')) return []
  const command = callArgument(call, 'command')
  // Most lines name neither: read no further.
  if (typeof command !== 'string' || (!command.includes('SKILL.md') && !command.includes('find'))) return []
  const isSkillFile = skillFileTest(skill)
  const words: string[] = []
  for (const simple of commandsOfShellLine(command)) {
    if (SEARCHERS.has(simple.program)) words.push(...filesNamedBy(simple).filter(isSkillFile))
    if (simple.program !== 'find' || !findPrints(simple.args)) continue
    const names = simple.args.flatMap((arg, i) => (FIND_NAME_TESTS.has(arg) && simple.args[i + 1] !== undefined ? [simple.args[i + 1] as string] : []))
    if (names.length === 0 || names.some((name) => globMatches(name.replace(/^.*\//, ''), 'SKILL.md'))) words.push(...findStartingPoints(simple.args).map((point) => `${point.replace(/\/+$/, '')}/**`))
  }
  return words
}

/** Whether `find` runs a printer or a searcher on what it finds (`-exec cat {} \;`). */
function findPrints(args: readonly string[]): boolean {
  return findCommands(args).some(([program = '']) => FILE_PRINTERS.has(basename(program)) || SEARCHERS.has(basename(program)))
}

/** Whether the call is the skill tool whose result says how it went (`commandName`, `success`): Claude Code's. */
export function reportsSkillCompletion(call: ToolCall): boolean {
  return call.name === 'Skill'
}
