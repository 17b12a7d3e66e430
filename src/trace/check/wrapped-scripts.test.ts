import { describe, expect, it } from 'vitest'
import { call, closedRun, result, rowOf } from '../../../test/helpers/trace.js'

// Codex's `exec --json` records every command wrapped in a shell (`/bin/bash -lc '<script>'`), and
// the wrapper escapes the quotes in the script. `git commit -m 'WIP'` was written
// `/bin/bash -lc 'git commit -m '"'"'WIP'"'"''`, so a row about the command the model ran held
// over a run that ran it, where the rollout of the same run (`exec_command {cmd}`) gapped.
const ran = (command: string): string => closedRun([call('c-1', 'command_execution', { command }, { operations: ['shell'], subjects: [] }), result('c-1')])
const absent = (contains: string): string => `{tool.absent: {operations: [shell], args: {command: {contains: ${JSON.stringify(contains)}}}}}`

describe('a shell line that wraps its script in a shell is also read as that script', () => {
  it.each([
    ['a single quote escaped as \'"\'"\'', `/bin/bash -lc 'git commit -m '"'"'WIP'"'"''`, "git commit -m 'WIP'"],
    ["a single quote escaped as '\\''", `bash -c 'git commit -m '\\''WIP'\\'''`, "git commit -m 'WIP'"],
    ['a double quote escaped as \\"', `/bin/bash -lc "litehive report --message \\"Reviewed\\" --verdict pass"`, 'litehive report --message "Reviewed"'],
    // A real exec-json line from the wild corpus (heru), quoting mixed the way Codex joins words.
    ['quotes mixed as Codex joins words', `/bin/bash -lc 'for f in tests/test_*.py; do sed -n '"'1,220p' \\""'$f"; done'`, "sed -n '1,220p' \"$f\""],
  ])('%s: the command it ran is matched', (_name, line, contains) => {
    expect(rowOf(absent(contains), ran(line)).verdict).toBe('gap')
  })

  it('a line the wrapper did not escape is matched as written, and a row about another command still holds', () => {
    expect(rowOf(absent('ls -la'), ran(`/bin/bash -lc 'ls -la'`)).verdict).toBe('gap')
    expect(rowOf(absent("git commit -m 'WIP'"), ran(`/bin/bash -lc 'git commit -m '"'"'done'"'"''`)).verdict).toBe('ok')
  })
})
