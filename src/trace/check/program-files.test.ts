import { describe, expect, it } from 'vitest'
import { unreadOperands } from '../../../adapters/shared/shell.js'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * A program run by its path (`./.engineering/clean.sh`) is a file the shell reads to run it, as
 * `sh .engineering/clean.sh` reads its script operand: "nothing under `.engineering/` was read"
 * and "…was touched" were `ok` over the first and `unknown` over the second.
 */

const NOT_READ = '{tool.absent: {operations: [file.read], subject: {glob: "file:.engineering/*"}}}'
const NOT_WRITTEN = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:.engineering/*"}}}'
const UNTOUCHED = '{tool.absent: {subject: {glob: "file:.engineering/*"}}}'

describe('a program run by its path', () => {
  it.each([
    ['./.engineering/clean.sh', './.engineering/clean.sh'],
    ['.engineering/clean.sh --all', '.engineering/clean.sh'],
    ['/w/.engineering/clean.sh', '/w/.engineering/clean.sh'],
    ['cd .engineering && ./clean.sh', '.engineering/clean.sh'],
    ['true && .engineering/bin/tool x | sort', '.engineering/bin/tool'],
  ])('%s: read and touched are unknown, naming the file run', (line, file) => {
    expect(over(NOT_READ, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining([file]) } })
    expect(over(UNTOUCHED, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: expect.arrayContaining([file]) } })
  })

  it('is read as the script operand of a shell is, and what it writes stays unread', () => {
    for (const line of ['./.engineering/clean.sh', 'sh .engineering/clean.sh']) {
      expect(over(NOT_READ, line).verdict).toBe('unknown')
      // What a script file writes is not read, run either way (the guide's "a script file or a build recipe").
      expect(over(NOT_WRITTEN, line).verdict).toBe('ok')
    }
  })

  it.each(['./scripts/clean.sh', 'node_modules/.bin/vitest run', '/usr/bin/env python3 -V', 'ls .', 'make test'])('%s stays ok: it runs no file under .engineering/', (line) => {
    expect(over(NOT_READ, line).verdict).toBe('ok')
    expect(over(UNTOUCHED, line).verdict).toBe('ok')
  })

  it('is a word of the line, as written and inside the folder a cd entered', () => {
    expect(unreadOperands('./scripts/clean.sh')).toContain('./scripts/clean.sh')
    expect(unreadOperands('cd tools && bin/run')).toEqual(expect.arrayContaining(['tools/', 'tools/bin/run']))
    // A program the shell finds on its PATH is named by no path of the line.
    expect(unreadOperands('make test')).not.toContain('make')
    // Text that only holds a `/` (a harness's stray JSON as a line) runs no file.
    expect(unreadOperands('{"cmd":"bin/ls a"}')).toEqual([])
  })
})
