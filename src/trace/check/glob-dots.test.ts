import { describe, expect, it } from 'vitest'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * A shell's `*` takes a dot inside a name: `rm -f *` removes README.md. The overlap of a shell
 * glob with a subject refused every dot to `*` (only `?` took one), so "README.md untouched" was
 * `ok` over `rm -f *`, `cat R*` and `cat READ*`. A leading dot is still `*`'s to skip: `.env` stays
 * `ok` over `cat *`.
 */

const README_UNTOUCHED = '{tool.absent: {subject: {glob: "file:README.md"}}}'
const NEVER_READ_README = '{tool.absent: {operations: [file.read], subject: {glob: "file:README.md"}}}'
const ENV_UNTOUCHED = '{tool.absent: {subject: {glob: "file:.env"}}}'

describe('a shell glob that may expand to a name with a dot in it', () => {
  it.each(['rm -f *', 'rm ./*', 'cat R*', 'cat READ*', 'head -n 3 *'])('%s: "README.md untouched" is unknown', (line) => {
    expect(over(README_UNTOUCHED, line).verdict).toBe('unknown')
  })

  it.each(['cat R*', 'wc -l *'])('%s: "never read README.md" is unknown', (line) => {
    expect(over(NEVER_READ_README, line).verdict).toBe('unknown')
  })

  it.each(['cat *', 'rm -f *', 'cat ?env'])('%s: "`.env` untouched" stays ok (a leading dot is not `*`’s)', (line) => {
    expect(over(ENV_UNTOUCHED, line).verdict).toBe('ok')
  })

  it.each(['cat *.ts', 'rm -f src/*'])('%s: "README.md untouched" stays ok', (line) => {
    expect(over(README_UNTOUCHED, line).verdict).toBe('ok')
  })
})
