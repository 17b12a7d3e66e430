import { describe, expect, it } from 'vitest'
import { filesGitShows } from './git-shows.js'
import { unreadOperands } from './shell.js'

/**
 * What git prints the contents of beyond the words it was given (`filesGitShows`): the file an
 * object names by path, and everything here where it prints changes no path limits.
 */
const shown = (line: string): readonly string[] => filesGitShows(line.split(' ').slice(1))

describe('the files git shows the contents of', () => {
  it.each([
    // An object by path: that file as a revision, the index or a merge's side holds it.
    ['git show HEAD:src/a.ts', ['src/a.ts']],
    ['git show HEAD~2:./src/a.ts', ['./src/a.ts']],
    ['git show :src/a.ts', ['src/a.ts']],
    ['git show :2:uv.lock', ['uv.lock']],
    ['git show --stat main:src/a.ts', ['src/a.ts']],
    ['git cat-file -p HEAD:.env', ['.env']],
    ['git cat-file blob HEAD:.env', ['.env']],
    ['git diff main:src/a.ts HEAD:src/a.ts', ['src/a.ts', 'src/a.ts']],
    ['git grep KEY HEAD:src', ['src']],
    ['git archive HEAD:docs', ['docs']],
    ['git log -L 1,5:src/a.ts', ['src/a.ts']],
    // Changes no path limits: any file here.
    ['git diff', ['./**']],
    ['git diff --cached', ['./**']],
    ['git diff HEAD~1', ['./**']],
    ['git diff main...HEAD', ['./**']],
    ['git diff -U5 origin/main', ['./**']],
    ['git diff --stat -p', ['./**']],
    ['git diff -- :!package-lock.json', ['./**']],
    ['git diff -- .', ['./**']],
    ['git show', ['./**']],
    ['git show HEAD', ['./**']],
    ['git show --format=%H abc1234', ['./**']],
    ['git log -p', ['./**']],
    ['git log -p -n 3 --author x.y', ['./**']],
    ['git log -S API_KEY', ['./**']],
    ['git log --patch --since 2.weeks', ['./**']],
    ['git whatchanged -p', ['./**']],
    ['git stash show -p', ['./**']],
    ['git stash show -p stash@{1}', ['./**']],
    ['git grep KEY', ['./**']],
    ['git grep -n -e KEY HEAD~1', ['./**']],
    ['git grep KEY src', ['./**']],
    ['git archive --format=zip HEAD', ['./**']],
    ['git format-patch -3 --stdout', ['./**']],
    ['git range-diff main topic~2 topic', ['./**']],
    ['git cat-file -p 3b18e512dba79e4c8300dd08aeb37f8e728b8dad', ['./**']],
    ['git add -p', ['./**']],
    ['git commit -p -m wip', ['./**']],
    ['git -C web diff', ['web/**']],
  ])('%s shows %j', (line, files) => {
    expect(shown(line)).toEqual(files)
  })

  it.each([
    // Names, counts or nothing: no file's contents.
    'git diff --stat',
    'git diff --name-only --diff-filter=U',
    'git diff --quiet',
    'git diff --no-index -- /tmp/a /tmp/b',
    'git show --stat HEAD',
    'git show -s --format=%H',
    'git log --oneline -5',
    'git log --all --oneline --grep=fix',
    'git stash show',
    'git stash list',
    'git cat-file -t HEAD',
    'git cat-file -p HEAD',
    'git status',
    'git add -A',
    'git commit -m wip',
    'git blame src/a.ts',
    // Limited by paths its words name already.
    'git diff src/a.ts',
    'git diff HEAD packages/core/src/sdk.ts',
    'git diff --ours --theirs -- uv.lock',
    'git log --all -p -- README.md',
    'git show abc1234 -- src/a.ts',
    'git grep KEY -- src/',
    'git add -p src/a.ts',
    'git format-patch -1 -- docs/',
  ])('%s shows nothing its words do not name', (line) => {
    expect(shown(line)).toEqual([])
  })

  it('is given by the line as words, inside the folder a cd entered', () => {
    expect(unreadOperands("git show ':2:uv.lock'")).toContain('uv.lock')
    expect(unreadOperands('cd pkg && git show HEAD:./a.ts')).toEqual(expect.arrayContaining(['./a.ts', 'pkg/a.ts']))
    expect(unreadOperands('cd pkg && git diff')).toContain('pkg/**')
    expect(unreadOperands('git --no-pager -c color.ui=never log -p')).toContain('./**')
  })
})
