import { describe, expect, it } from 'vitest'
import { filesWrittenBy } from '../../../adapters/shared/shell.js'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * A wrapper told where to run its program (`env -C .engineering rm notes.md`, `sudo --chdir=d`)
 * runs it there, as after a `cd`: "nothing under `.engineering/` was written" was `ok` over a line
 * that removed `.engineering/notes.md`.
 */

const NOT_WRITTEN = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:.engineering/*"}}}'
const UNTOUCHED = '{tool.absent: {subject: {glob: "file:.engineering/*"}}}'

describe('a wrapper told which folder its program runs in', () => {
  it.each([
    'env -C .engineering rm notes.md',
    'env -C.engineering rm notes.md',
    'env --chdir .engineering rm notes.md',
    'env --chdir=.engineering rm notes.md',
    'env -i -C .engineering FOO=1 rm notes.md',
    'sudo -D .engineering rm notes.md',
    'sudo --chdir=.engineering rm notes.md',
  ])('%s: "nothing under .engineering/ written" is unknown, naming the file', (line) => {
    expect(over(NOT_WRITTEN, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: ['.engineering/notes.md'] } })
    expect(over(UNTOUCHED, line).verdict).toBe('unknown')
  })

  it('writes inside that folder, and a path it names is still read as written too', () => {
    expect(filesWrittenBy('env -C .engineering rm notes.md')).toContain('.engineering/notes.md')
    expect(filesWrittenBy('env -C /srv/app sh -c "echo x > out.txt"')).toEqual(expect.arrayContaining(['/srv/app/out.txt']))
  })

  it.each(['env -C /tmp rm notes.md', 'env FOO=1 rm notes.md', 'sudo -u app rm notes.md', 'env -u HOME rm notes.md'])('%s stays ok under .engineering/', (line) => {
    expect(over(NOT_WRITTEN, line).verdict).toBe('ok')
  })
})
