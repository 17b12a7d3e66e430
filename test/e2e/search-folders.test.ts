import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import type { ExpectationRow } from '../../src/trace/report-types.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { CLAUDE_CODE, installedProgram } from './harness-install.js'
import { freshDir, runCalls, toolResults } from './harness-run.js'

// Claude Code's `Grep` given no path searches the session's folder with ripgrep's `--hidden`, and
// its `Glob` matches a pattern that names no folder at any depth (`out.ts` finds
// `src/generated/out.ts`). "Nothing under .engineering/ touched" was ok over a path-less `Grep`
// that searched the store, and "nothing under src/generated/ touched" over a `Glob` that listed it.
// A `Grep` given the file itself answers with its lines, yet its harness names the call `search`:
// "nothing under .engineering/ read" by `file.read` was ok over it.
const SPEC = readSpec(`format: trace-spec/1
id: e2e/search-folders
expectations:
  - id: store-untouched
    expect: {tool.absent: {subject: {glob: "file:.engineering/*"}}}
  - id: generated-untouched
    expect: {tool.absent: {subject: {glob: "file:src/generated/*"}}}
  - id: store-never-read
    expect: {tool.absent: {operations: [file.read], subject: {glob: "file:.engineering/*"}}}
`)

const claude = installedProgram(CLAUDE_CODE)

describe('Claude Code’s Grep and Glob, given no folder or a file', () => {
  it.each([
    ['grep', { tool: 'Grep', args: { pattern: 'TOKEN_42', output_mode: 'files_with_matches' } }, '.engineering/notes.md', 'store-untouched'],
    ['glob', { tool: 'Glob', args: { pattern: 'out.ts' } }, 'src/generated/out.ts', 'generated-untouched'],
    ['grep-file', { tool: 'Grep', args: { pattern: 'TOKEN', path: '.engineering/notes.md', output_mode: 'content' } }, 'TOKEN_42', 'store-never-read'],
  ] as const)('%s: what it went through is read from the harness’s own answer, and the row is unknown, not ok', async (name, call, found, rowId) => {
    const workspace = freshDir('search-folders', name, 'work')
    mkdirSync(join(workspace, '.engineering'), { recursive: true })
    mkdirSync(join(workspace, 'src', 'generated'), { recursive: true })
    writeFileSync(join(workspace, '.engineering', 'notes.md'), 'TOKEN_42\n')
    writeFileSync(join(workspace, 'src', 'generated', 'out.ts'), 'export const token = "TOKEN_42"\n')
    const run = await runCalls({ suite: 'search-folders', name, launch: CLAUDE_CODE, wire: 'anthropic-messages', program: claude(), prompt: 'Look around.', calls: [call], workspace })
    // The harness really went there: its answer names the file.
    expect(toolResults(run.stdout)).toContain(found)
    const report = await checkTranscriptFile(SPEC, run.stdout)
    const row = report.expectations.find((expectation) => expectation.id === rowId) as ExpectationRow
    expect(row).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread' } })
  })
})
