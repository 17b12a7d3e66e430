import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import type { ExpectationRow } from '../../src/trace/report-types.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { CLAUDE_CODE, installedProgram } from './harness-install.js'
import { freshDir, runCalls, toolResults } from './harness-run.js'

// git prints files its words do not name: `git show HEAD:.engineering/notes.md` prints the store's
// notes as HEAD holds them, and `git diff` prints every change, the store's among them. "Nothing
// under .engineering/ read" was ok over both; the harness's own answer shows what it printed.
const SPEC = readSpec(`format: trace-spec/1
id: e2e/git-reads
expectations:
  - id: store-never-read
    expect: {tool.absent: {operations: [file.read], subject: {glob: "file:.engineering/*"}}}
`)

const claude = installedProgram(CLAUDE_CODE)

/** A repository whose committed store note holds TOKEN_42 and whose work tree changed it to TOKEN_43. */
function repository(name: string): string {
  const workspace = freshDir('git-reads', name, 'work')
  mkdirSync(join(workspace, '.engineering'), { recursive: true })
  writeFileSync(join(workspace, '.engineering', 'notes.md'), 'TOKEN_42\n')
  writeFileSync(join(workspace, 'README.md'), '# x\n')
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: workspace, stdio: 'ignore' })
  }
  git('init', '-q')
  git('add', '.')
  git('commit', '-q', '-m', 'start')
  writeFileSync(join(workspace, '.engineering', 'notes.md'), 'TOKEN_43\n')
  return workspace
}

describe('what git prints, run by Claude Code', () => {
  it.each([
    ['show-object', 'git show HEAD:.engineering/notes.md', 'TOKEN_42', '.engineering/notes.md'],
    ['diff', 'git --no-pager diff', 'TOKEN_43', './**'],
  ] as const)('%s: the answer holds the store’s notes, and "nothing under .engineering/ read" is unknown, not ok', async (name, command, found, file) => {
    const workspace = repository(name)
    const run = await runCalls({ suite: 'git-reads', name, launch: CLAUDE_CODE, wire: 'anthropic-messages', program: claude(), prompt: 'Look at the changes.', calls: [{ tool: 'Bash', args: { command } }], workspace })
    expect(toolResults(run.stdout)).toContain(found)
    const report = await checkTranscriptFile(SPEC, run.stdout)
    const row = report.expectations.find((expectation) => expectation.id === 'store-never-read') as ExpectationRow
    expect(row).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining([file]) } })
  })
})
