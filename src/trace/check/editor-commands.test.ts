import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkAnyFormatText } from './check.js'
import { readSpec } from '../spec/read.js'

/**
 * OpenHands' `str_replace_editor` (and the agent SDK's `file_editor`) does what its `command`
 * says: `view` reads, `create` writes, `str_replace`, `insert` and `undo_edit` edit. Every call was
 * `file.edit`, so "never write hello.txt" by `file.write` was `ok` over the real OpenHands run that
 * created it (Harbor's ATIF `v1.5-openhands-hello-world.json`), and "never read .env" by `file.read`
 * over a `view` of it.
 */

const HELLO_WORLD = resolve(import.meta.dirname, '../../../test/fixtures/wild/atif/v1.5-openhands-hello-world.json')

const SPEC = readSpec(`format: trace-spec/1
id: editor-commands
expectations:
  - id: never-written
    expect: {tool.absent: {operations: [file.write], subject: {glob: "file:*hello.txt"}}}
  - id: never-edited
    expect: {tool.absent: {operations: [file.edit], subject: {glob: "file:*hello.txt"}}}
  - id: never-read
    expect: {tool.absent: {operations: [file.read], subject: {glob: "file:*hello.txt"}}}
`)

interface Trajectory {
  steps?: { tool_calls?: { function_name: string; arguments: Record<string, unknown> }[] }[]
}

/** The real trajectory, its editor call's command replaced. */
function withCommand(tool: string, command: string): string {
  const trajectory = JSON.parse(readFileSync(HELLO_WORLD, 'utf8')) as Trajectory
  for (const step of trajectory.steps ?? []) {
    for (const call of step.tool_calls ?? []) {
      if (call.function_name !== 'str_replace_editor') continue
      call.function_name = tool
      call.arguments = { ...call.arguments, command }
    }
  }
  return JSON.stringify(trajectory)
}

const verdicts = (text: string): Record<string, string> => Object.fromEntries(checkAnyFormatText(SPEC, text, {}).expectations.map((row) => [row.id, row.verdict]))

describe('an editor whose command says what it does', () => {
  it('the real OpenHands run created hello.txt: a write, so "never written" is a gap', () => {
    expect(verdicts(readFileSync(HELLO_WORLD, 'utf8'))).toEqual({ 'never-written': 'gap', 'never-edited': 'ok', 'never-read': 'ok' })
  })

  it.each([
    ['str_replace_editor', 'view', { 'never-written': 'ok', 'never-edited': 'ok', 'never-read': 'gap' }],
    ['str_replace_editor', 'str_replace', { 'never-written': 'ok', 'never-edited': 'gap', 'never-read': 'ok' }],
    ['str_replace_editor', 'insert', { 'never-written': 'ok', 'never-edited': 'gap', 'never-read': 'ok' }],
    ['file_editor', 'view', { 'never-written': 'ok', 'never-edited': 'ok', 'never-read': 'gap' }],
    ['file_editor', 'create', { 'never-written': 'gap', 'never-edited': 'ok', 'never-read': 'ok' }],
  ])('%s {command: %s}', (tool, command, expected) => {
    expect(verdicts(withCommand(tool, command))).toEqual(expected)
  })

  it('a command it does not know keeps the tool’s own operation: an edit', () => {
    expect(verdicts(withCommand('str_replace_editor', 'rewrite'))).toMatchObject({ 'never-edited': 'gap' })
  })
})
