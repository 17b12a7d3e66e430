import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { SKILL_LOAD_SPEC } from '../helpers/skill-loads.js'
import { CLAUDE_CODE, CODEX, ensureHarness, GEMINI, OPENCODE, PI, QWEN } from './harness-install.js'
import { freshDir, runOneCall, type OneCall } from './harness-run.js'

// One skill, `greet`, in the directory each real harness reads skills from, loaded the way that
// harness loads one: a skill tool (Claude Code, Qwen Code, opencode, Gemini CLI) or a read of its
// SKILL.md (pi, Codex, which have none). "greet was used" holds over every stdout and "never used"
// is a gap; "completed" follows the load's result (opencode's skill tool runs `rg`, and fails
// where the run's PATH has none).
const SKILL = '---\nname: greet\ndescription: Greets the user warmly. Use whenever the user asks to be greeted.\n---\n\nSay "Hello from the greet skill".\n'
const LOADED = { used: 'ok', 'never-used': 'gap', completed: 'ok' }

interface Case extends OneCall {
  /** Where the skill is written, relative to the workspace. */
  readonly skillFile: string
  /** The verdicts; `completed` from the stdout where the load's own result decides it. */
  readonly expected: Record<string, string> | ((stdout: string) => Record<string, string>)
}

const CASES: readonly Case[] = [
  // The declaration's --allowedTools with Skill added, so the call runs without a prompt.
  { name: 'claude', launch: { ...CLAUDE_CODE, argv: CLAUDE_CODE.argv.map((word) => (word === 'Read,Bash,Glob,Grep,Edit,Write' ? 'Read,Bash,Skill' : word)) }, wire: 'anthropic-messages', tool: 'Skill', args: { skill: 'greet' }, skillFile: '.claude/skills/greet/SKILL.md', expected: LOADED },
  { name: 'qwen', launch: QWEN, wire: 'openai-chat', tool: 'skill', args: { skill: 'greet' }, skillFile: '.qwen/skills/greet/SKILL.md', expected: LOADED },
  { name: 'opencode', launch: OPENCODE, wire: 'openai-chat', tool: 'skill', args: { name: 'greet' }, skillFile: '.opencode/skill/greet/SKILL.md', expected: (stdout) => ({ ...LOADED, completed: stdout.includes('"tool":"skill","callID":"call_vh_001_1","state":{"status":"completed"') ? 'ok' : 'gap' }) },
  { name: 'gemini', launch: GEMINI, wire: 'gemini', tool: 'activate_skill', args: { name: 'greet' }, skillFile: '.gemini/skills/greet/SKILL.md', expected: LOADED },
  { name: 'pi', launch: PI, wire: 'anthropic-messages', tool: 'read', args: { path: '.pi/skills/greet/SKILL.md' }, skillFile: '.pi/skills/greet/SKILL.md', expected: LOADED },
  { name: 'codex', launch: CODEX, wire: 'openai-responses', tool: 'exec_command', args: { cmd: 'cat .agents/skills/greet/SKILL.md' }, skillFile: '.agents/skills/greet/SKILL.md', expected: LOADED },
]

const programs = new Map<string, string>()
beforeAll(() => {
  for (const { name, launch } of CASES) programs.set(name, ensureHarness(launch))
}, 900_000)

describe('a skill loaded on every real harness: skill.invoked sees each way of loading one', () => {
  it.each(CASES.map((entry) => [entry.name, entry] as const))('%s', async (name, entry) => {
    const workspace = freshDir('skill-loads', name, 'work')
    mkdirSync(dirname(join(workspace, entry.skillFile)), { recursive: true })
    writeFileSync(join(workspace, entry.skillFile), SKILL)
    const ran = await runOneCall({ ...entry, suite: 'skill-loads', program: programs.get(name) as string, prompt: 'Greet me.', workspace })
    const report = await checkTranscriptFile(SKILL_LOAD_SPEC, ran.stdout)
    const expected = typeof entry.expected === 'function' ? entry.expected(ran.result.stdout) : entry.expected
    expect(Object.fromEntries(report.expectations.map((row) => [row.id, row.verdict]))).toEqual(expected)
  })
})
