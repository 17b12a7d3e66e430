import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTranscriptAsEvents } from '../../adapters/transcript/read.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { SKILL_LOAD_SPEC } from '../helpers/skill-loads.js'
import { claudeToolRun, rowOf } from '../helpers/trace.js'

// Each real harness loading the skill `greet` its own way (test/fixtures/skill-loads/README.md),
// and three public transcripts that read a skill's SKILL.md. Before, only Claude Code's `Skill`
// counted: "never used" held over every other load, and "used" was a gap.

async function verdicts(path: string, spec = SKILL_LOAD_SPEC): Promise<Record<string, string>> {
  const report = await checkTranscriptFile(spec, path)
  return Object.fromEntries(report.expectations.map((row) => [row.id, row.verdict]))
}

describe('a skill loaded, as each real harness recorded it', () => {
  const DIR = resolve(import.meta.dirname, '../fixtures/skill-loads')
  it.each(['claude.stream.jsonl', 'qwen.stream.jsonl', 'gemini.stream.jsonl', 'pi.stdout.jsonl', 'codex.exec.jsonl'])('%s: used, and completed', async (file) => {
    expect(await verdicts(join(DIR, file))).toEqual({ used: 'ok', 'never-used': 'gap', completed: 'ok' })
  })

  it('opencode.run.jsonl: used, and not completed (the skill call failed)', async () => {
    expect(await verdicts(join(DIR, 'opencode.run.jsonl'))).toEqual({ used: 'ok', 'never-used': 'gap', completed: 'gap' })
  })
})

describe('skills loaded by reading their SKILL.md, in public transcripts', () => {
  const WILD = resolve(import.meta.dirname, '../fixtures/wild')
  const used = (skill: string) => readSpec(`format: trace-spec/1\nid: wild-skill\nexpectations:\n  - id: used\n    expect: {skill.invoked: {skill: ${skill}}}\n`)
  it.each([
    // Codex Desktop: `sed -n '1,220p' …/.agents/skills/react-doctor/SKILL.md`.
    ['codex-rollout/duet_codex-desktop-0.133.0-alpha.1.jsonl', 'react-doctor'],
    // Hermes: read_file of ~/.hermes/skills/core/hierarchical-memory-system/SKILL.md, three times.
    ['hermes/weixin-glm5-terminal-session.json', 'hierarchical-memory-system'],
    // pi: `cat /tmp/skills/skills/pdf/SKILL.md`.
    ['pi/v1-custom-tool-session.jsonl', 'pdf'],
  ])('%s loads %s', async (file, skill) => {
    expect(await verdicts(join(WILD, file), used(skill))).toEqual({ used: 'ok' })
  })
})

describe('a skill a real line printed without naming it', () => {
  // pi: `find …/pi-skills -name "SKILL.md" -exec echo "=== {} ===" \; -exec cat {} \;` printed
  // every skill's SKILL.md, brave-search's among them (its result names the file). In a closed run,
  // "brave-search never loaded" was ok over it; "loaded" was a gap.
  const line = 'find /Users/badlogic/workspaces/pi-skills -name "SKILL.md" -exec echo "=== {} ===" \\; -exec cat {} \\;'
  const run = claudeToolRun([{ name: 'Bash', input: { command: line } }], { cwd: '/Users/badlogic/workspaces/pi-mono' })

  it('is as the pi session holds it', async () => {
    const events = []
    for await (const event of readTranscriptAsEvents(resolve(import.meta.dirname, '../fixtures/wild/pi/v1-custom-tool-session.jsonl'), { run: 'wild' })) events.push(event)
    expect(events.some((event) => event.event === 'tool.requested' && (event.input as { command?: string }).command === line)).toBe(true)
  })

  it('leaves "never loaded" and "loaded" unknown, naming everything under where find started', () => {
    const never = rowOf('{skill.invoked: {skill: brave-search, count: {exactly: 0}}}', run)
    expect(never).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['/Users/badlogic/workspaces/pi-skills/**'] } })
    expect(rowOf('{skill.invoked: {skill: brave-search}}', run).verdict).toBe('unknown')
  })
})

describe('a skill written, not loaded', () => {
  it.each([
    "mkdir -p .claude/skills/greet && cat > .claude/skills/greet/SKILL.md <<'EOF'\n---\nname: greet\ndescription: Greets.\n---\nSay hello.\nEOF",
    "sed -i 's/hello/hi/' .claude/skills/greet/SKILL.md && head -3 README.md",
  ])('%s: "greet loaded" is not ok', (line) => {
    const run = claudeToolRun([{ name: 'Bash', input: { command: line } }])
    expect(rowOf('{skill.invoked: {skill: greet}}', run).verdict).not.toBe('ok')
  })
})
