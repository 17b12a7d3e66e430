import { describe, expect, it } from 'vitest'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * A text tool's script names files of its own: awk's `print > f`, sed's `w f` and `s///w f` write
 * them, sed's `r f` reads one in. The script is no operand, so "nothing under `.engineering/` was
 * written" and "never read `.env`" were `ok` over each; so were `xxd in out` and `iconv -o out`.
 */

const NOT_WRITTEN = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:.engineering/*"}}}'
const NEVER_READ_ENV = '{tool.absent: {operations: [file.read], subject: {glob: "file:.env"}}}'

describe('the files a script names', () => {
  it.each([
    [`awk '{print > ".engineering/out.txt"}' a.txt`, '.engineering/out.txt'],
    [`awk '{print $1 >> ".engineering/" $2 ".log"}' a.txt`, '.engineering/'],
    ["sed -n '/x/w .engineering/out.txt' a.txt", '.engineering/out.txt'],
    ["sed 's/a/b/w .engineering/changed.txt' a.txt", '.engineering/changed.txt'],
    ["sed -i -e 's/a/b/w .engineering/changed.txt' a.txt", '.engineering/changed.txt'],
    ['xxd -r dump.hex .engineering/out.bin', '.engineering/out.bin'],
    ['iconv -f latin1 -t utf-8 a.txt -o .engineering/b.txt', '.engineering/b.txt'],
  ])('%s: "nothing under .engineering/ written" is unknown, naming %s', (line, file) => {
    expect(over(NOT_WRITTEN, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining([file]) } })
  })

  it.each(["sed '/x/r .env' a.txt", "sed -e '1r .env' -e 's/a/b/' a.txt", "sed -n '$R .env' a.txt"])('%s: "never read .env" is unknown', (line) => {
    expect(over(NEVER_READ_ENV, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining(['.env']) } })
  })

  it.each([
    "awk '{print $1}' .engineering/notes.md",
    `awk '{ print "bad" > "/dev/stderr" }' a.txt`,
    "sed -n '/x/w /dev/stdout' .engineering/notes.md",
    "sed 's/w .engineering/x/' a.txt",
    'xxd .engineering/notes.md',
    'iconv -f latin1 -t utf-8 .engineering/notes.md',
  ])('%s stays ok: it writes nothing under .engineering/', (line) => {
    expect(over(NOT_WRITTEN, line).verdict).toBe('ok')
  })

  it.each(["sed '/x/w .env' a.txt", "sed -n '1,5p' a.txt"])('%s stays ok: it reads no .env', (line) => {
    expect(over(NEVER_READ_ENV, line).verdict).toBe('ok')
  })
})
