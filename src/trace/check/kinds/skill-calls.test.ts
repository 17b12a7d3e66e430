import { describe, expect, it } from 'vitest'
import type { ToolCall } from '../../ir/types.js'
import { loadsSkill, skillFileMaybePrinted } from './skill-calls.js'

function call(name: string, input: Record<string, unknown>, operations: string[] = [], subjects: string[] = []): ToolCall {
  return { callId: 'c', name, operations, subjects, input, joinedArgv: null, unclassified: false, unnamedPrograms: [], shellStart: '', writtenFiles: null, cwd: null, otherSubjects: null }
}

describe('loadsSkill: the ways a harness loads a skill', () => {
  it.each([
    ['Claude Code’s Skill', call('Skill', { skill: 'greet' }, ['skill.load'])],
    ['Qwen Code’s skill', call('skill', { skill: 'greet' }, ['skill.load'])],
    ['opencode’s skill', call('skill', { name: 'greet' }, ['skill.load'])],
    ['Gemini CLI’s activate_skill', call('activate_skill', { name: 'greet' }, ['skill.load'])],
    ['Hermes’s skill_view', call('skill_view', { name: 'greet' }, ['skill.load'])],
    ['pi’s read of the SKILL.md', call('read', { path: '.pi/skills/greet/SKILL.md' }, ['file.read'], ['file:.pi/skills/greet/SKILL.md'])],
    ['a read of it by a relative path', call('Read', { file_path: 'greet/SKILL.md' }, ['file.read'], ['file:greet/SKILL.md'])],
    ['Codex’s cat', call('exec_command', { cmd: 'cat .agents/skills/greet/SKILL.md' }, ['shell'], ['proc:cat'])],
    ['Codex Desktop’s sed -n', call('exec_command', { cmd: "sed -n '1,220p' /Users/u/.agents/skills/greet/SKILL.md" }, ['shell'], ['proc:sed'])],
    ['a converted shell call’s command', call('Bash', { command: 'head -50 ~/skills/greet/SKILL.md' }, ['shell'], ['proc:head'])],
  ])('%s', (_how, loading) => {
    expect(loadsSkill(loading, 'greet')).toBe(true)
  })

  it.each([
    ['another skill', call('Skill', { skill: 'review' }, ['skill.load'])],
    ['a Skill call naming it by another key', call('Skill', { name: 'greet' }, ['skill.load'])],
    ['a slash command', call('SlashCommand', { command: '/greet' }, ['skill.load'])],
    ['a skill whose name ends with it', call('read', { path: 'skills/pre-greet/SKILL.md' }, ['file.read'], ['file:skills/pre-greet/SKILL.md'])],
    ['another file of the skill', call('read', { path: 'skills/greet/notes.md' }, ['file.read'], ['file:skills/greet/notes.md'])],
    ['a write of the SKILL.md', call('write', { path: 'skills/greet/SKILL.md' }, ['file.write'], ['file:skills/greet/SKILL.md'])],
    ['a shell line that only lists it', call('bash', { command: 'ls skills/greet/SKILL.md' }, ['shell'], ['proc:ls'])],
    ['a shell line that searches every skill', call('bash', { command: 'grep -r hook skills/*/SKILL.md' }, ['shell'], ['proc:grep'])],
    ['a tool of no operation', call('mystery', { skill: 'greet' })],
    // A printer on the line that is not given the file: the line writes, edits or removes it.
    ['a here-document written into it', call('Bash', { command: "cat > .claude/skills/greet/SKILL.md <<'EOF'\n---\nname: greet\n---\nEOF" }, ['shell'], ['proc:cat'])],
    ['another file printed into it', call('Bash', { command: 'cat README.md > .claude/skills/greet/SKILL.md' }, ['shell'], ['proc:cat'])],
    ['an in-place edit', call('Bash', { command: "sed -i 's/hello/hi/' .claude/skills/greet/SKILL.md" }, ['shell'], ['proc:sed'])],
    ['a removal beside a printer', call('Bash', { command: 'head -1 notes.md && rm .claude/skills/greet/SKILL.md' }, ['shell'], ['proc:head', 'proc:rm'])],
    ['its path echoed beside a printer', call('Bash', { command: 'tail -n 5 log.txt; echo .claude/skills/greet/SKILL.md' }, ['shell'], ['proc:tail', 'proc:echo'])],
  ])('not %s', (_what, other) => {
    expect(loadsSkill(other, 'greet')).toBe(false)
  })
})

describe('skillFileMaybePrinted: lines that may have printed a skill without loading it as such', () => {
  it.each([
    ['a search that prints from it', "grep -A 50 '## Steps' .claude/skills/greet/SKILL.md", ['.claude/skills/greet/SKILL.md']],
    ['find printing every SKILL.md under a folder', 'find .claude/skills -name SKILL.md -exec cat {} \\;', ['.claude/skills/**']],
    ['find printing every Markdown file', "find skills/ -name '*.md' -exec head -n 40 {} +", ['skills/**']],
    ['find naming no file by name', 'find skills -type f -exec cat {} +', ['skills/**']],
  ])('%s', (_what, line, words) => {
    expect(skillFileMaybePrinted(call('Bash', { command: line }, ['shell']), 'greet')).toEqual(words)
  })

  it.each([
    ['find that only lists', 'find .claude/skills -name SKILL.md'],
    ['find printing other files', "find . -name '*.py' -exec cat {} \\;"],
    ['a search of another skill', 'grep -n name skills/review/SKILL.md'],
    ['a copy', 'cp .claude/skills/greet/SKILL.md /tmp/x.md'],
  ])('not %s', (_what, line) => {
    expect(skillFileMaybePrinted(call('Bash', { command: line }, ['shell']), 'greet')).toEqual([])
  })
})
