import { describe, expect, it } from 'vitest'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * git prints files' contents that its words do not name: `git show HEAD:.env` prints `.env` as
 * HEAD holds it, `git diff` every changed file, `git grep KEY` every tracked one. "Never read
 * `.env`" was `ok` over each; a run that printed only names (`git diff --stat`) stays `ok`.
 */

const NEVER_READ_ENV = '{tool.absent: {operations: [file.read], subject: {glob: "file:.env"}}}'
const NOT_READ_UNDER_STORE = '{tool.absent: {operations: [file.read], subject: {glob: "file:.engineering/*"}}}'
const NOT_WRITTEN_UNDER_STORE = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:.engineering/*"}}}'

describe('what git prints of files its words do not name', () => {
  it.each([
    ['git show HEAD:.env', '.env'],
    ['git show :2:.env', '.env'],
    ['git cat-file -p HEAD:.env', '.env'],
    ['git diff', './**'],
    ['git diff HEAD~1', './**'],
    ['git log -p -3', './**'],
    ['git show', './**'],
    ['git stash show -p', './**'],
    ['git grep API_KEY', './**'],
  ])('%s: "never read .env" is unknown, naming %s', (line, file) => {
    expect(over(NEVER_READ_ENV, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining([file]) } })
  })

  it('names a file under a folder by its path in the object, inside the folder git was told to work in', () => {
    expect(over(NOT_READ_UNDER_STORE, 'git show main:.engineering/notes.md | head -20')).toMatchObject({ verdict: 'unknown', outcome: { files: expect.arrayContaining(['.engineering/notes.md']) } })
    expect(over(NOT_READ_UNDER_STORE, 'git -C .engineering diff')).toMatchObject({ verdict: 'unknown', outcome: { files: expect.arrayContaining(['.engineering/**']) } })
  })

  it.each(['git diff --stat', 'git diff --name-only', 'git log --oneline -5', 'git show --stat HEAD', 'git status', 'git diff -- src/a.ts', 'git show HEAD:src/a.ts'])(
    '%s stays ok: it prints no contents of .env',
    (line) => {
      expect(over(NEVER_READ_ENV, line).verdict).toBe('ok')
    },
  )

  it('is a read, not a write: the rows over what was written stay ok', () => {
    for (const line of ['git diff', 'git show HEAD:.engineering/notes.md', 'git grep KEY']) expect(over(NOT_WRITTEN_UNDER_STORE, line).verdict).toBe('ok')
  })
})
