import { describe, expect, it } from 'vitest'
import { claudeToolRun, rowOf } from '../../../test/helpers/trace.js'

/**
 * MCP tools that write or read files: their harness names the call `mcp.call`, never `file.write`,
 * so "no edit to the store" (`tool.absent {operations: [file.write, file.edit], subject: …}`) was
 * `ok` over `mcp__filesystem__write_file {path: .engineering/notes.md}`. What a tool did with the
 * files it was given only its server knows: the row is `unknown`, naming them.
 */

const NO_EDIT = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:*.engineering/*"}}}'
const NEVER_READ = '{tool.absent: {operations: [file.read], subject: {glob: "file:*.engineering/*"}}}'

/** The row over one MCP call in a session opened in `/work`, read as it is and converted: both must agree. */
function rowOver(spec: string, name: string, input: Record<string, unknown>): ReturnType<typeof rowOf> {
  const run = claudeToolRun([{ name, input }], { cwd: '/work' })
  const asIs = rowOf(spec, run)
  expect(rowOf(spec, run, { format: 'claude-code/stream-json' }).outcome).toEqual(asIs.outcome)
  return asIs
}

describe('an MCP call given a file', () => {
  it.each([
    ['mcp__filesystem__write_file', { path: '/work/.engineering/notes.md', content: 'x' }],
    ['mcp__filesystem__edit_file', { path: '.engineering/notes.md', edits: [{ oldText: 'a', newText: 'b' }] }],
    ['mcp__filesystem__move_file', { source: '.engineering/notes.md', destination: 'notes.md' }],
    ['mcp__desktop-commander__edit_block', { file_path: '.engineering/notes.md', old_string: 'a', new_string: 'b' }],
    ['mcp__serena__create_text_file', { relative_path: '.engineering/notes.md', content: 'x' }],
  ])('%s may have written it: a writing operation is unknown, not ok', (name, input) => {
    const row = rowOver(NO_EDIT, name, input)
    expect(row.verdict).toBe('unknown')
    expect(row.outcome).toMatchObject({ reason: 'operands_unread' })
    expect(JSON.stringify(row.outcome)).toContain('.engineering/notes.md')
  })

  it('a tool known only to read is ruled out for a writing operation, not for a read', () => {
    expect(rowOver(NO_EDIT, 'mcp__filesystem__read_file', { path: '.engineering/notes.md' }).verdict).toBe('ok')
    expect(rowOver(NO_EDIT, 'mcp__serena__search_for_pattern', { substring_pattern: 'x', relative_path: '.engineering' }).verdict).toBe('ok')
    expect(rowOver(NEVER_READ, 'mcp__filesystem__read_file', { path: '.engineering/notes.md' }).verdict).toBe('unknown')
  })

  it('a call that names no such file, or a selector that names its tools, stays decided', () => {
    expect(rowOver(NO_EDIT, 'mcp__filesystem__write_file', { path: 'src/a.ts', content: 'mentions nothing of the store' }).verdict).toBe('ok')
    expect(rowOver('{tool.absent: {tools: [Write, Edit], subject: {glob: "file:*.engineering/*"}}}', 'mcp__filesystem__write_file', { path: '.engineering/notes.md', content: 'x' }).verdict).toBe('ok')
    // Without a subject, any file the call names may be the one written.
    expect(rowOver('{tool.absent: {operations: [file.write]}}', 'mcp__filesystem__write_file', { path: 'src/a.ts', content: 'x' }).verdict).toBe('unknown')
  })
})
