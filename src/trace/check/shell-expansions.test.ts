import { describe, expect, it } from 'vitest'
import { claudeToolRun, rowOf } from '../../../test/helpers/trace.js'

/**
 * Words a shell changes before a program sees them, and programs that act on files no word names.
 * Each line below removes `src/generated/out.js` in a session opened in `/work`, and "nothing under
 * `src/generated/` was touched" was `ok` over every one of them: `rm $F`, a loop's `rm "$f"`, `rm -rf
 * src`, `rm -rf src/{generated,other}`, `find src -delete`, `xargs rm < list`, `git -C src rm …`,
 * `rm ../work/src/…`, `rm ~/src/…`. The row is now `gap` where the line names the file, and
 * `unknown` where only the shell or the program knows which files it touched; never `ok`.
 */

const bash = (...lines: string[]): string => claudeToolRun(lines.map((command) => ({ name: 'Bash', input: { command } })), { cwd: '/work' })

const GENERATED_UNTOUCHED = '{tool.absent: {subject: {glob: "file:src/generated/*"}}}'
const GENERATED_NOT_WRITTEN = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:src/generated/*"}}}'

/** The row's verdict over one line, read as it is and converted by the Claude Code adapter: both must agree. */
function verdictOver(spec: string, line: string): string {
  const asIs = rowOf(spec, bash(line)).verdict
  const converted = rowOf(spec, bash(line), { format: 'claude-code/stream-json' }).verdict
  expect(converted, `${line} (converted)`).toBe(asIs)
  return asIs
}

describe('words a shell expands', () => {
  it.each([
    'F=src/generated/out.js; rm $F',
    'rm "${TARGET}"',
    'rm $(cat list.txt)',
    'for f in src/generated/*; do rm "$f"; done',
    'while read f; do rm "$f"; done < list.txt',
    'rm -rf src/{generated,other}',
    'rm ~/src/generated/out.js',
    'cd; rm -rf work/src/generated',
    'echo stale > "$OUT"',
  ])('%j may have removed the file: unknown, not ok', (line) => {
    expect(verdictOver(GENERATED_UNTOUCHED, line)).toBe('unknown')
    expect(verdictOver(GENERATED_NOT_WRITTEN, line)).toBe('unknown')
  })

  it('a brace list inside the folder is named by its subject as written: a gap, and unknown for a writing operation', () => {
    expect(verdictOver(GENERATED_UNTOUCHED, 'rm src/generated/out.{js,map}')).toBe('gap')
    expect(verdictOver(GENERATED_NOT_WRITTEN, 'rm src/generated/out.{js,map}')).toBe('unknown')
  })

  it('a path out of the session’s folder and back in names the file: a gap', () => {
    expect(verdictOver(GENERATED_UNTOUCHED, 'rm ../work/src/generated/out.js')).toBe('gap')
  })

  it.each([
    ['rm -rf build/{dist,cache}', 'ok'],
    ['rm -f $TMPDIR/x.lock', 'unknown'],
    ['PYTHONPATH=$PWD pytest -q && ls ~', 'ok'],
    ["git commit -F - <<'EOF'\nMention `$(src)` and *.js in prose\nEOF", 'ok'],
    // A home folder names a path from there: `~/.cache/pip` is never the session's `src/generated`.
    ['rm -rf ~/.cache/pip', 'ok'],
  ])('an expansion the selector cannot match, the folder itself, and text with blanks stay decided: %j is %s', (line, verdict) => {
    expect(verdictOver(GENERATED_UNTOUCHED, line)).toBe(verdict)
  })

  it('the reason names the word the shell expands', () => {
    expect(rowOf(GENERATED_UNTOUCHED, bash('F=src/generated/out.js; rm $F')).outcome).toMatchObject({ reason: 'operands_unread', words: ['$F'] })
  })
})

describe('programs that act on every file under a folder', () => {
  it.each([
    'rm -rf src',
    'rm -r src/',
    'cp -r empty/ src',
    'mv src /tmp/old-src',
    'chmod -R a-w src',
    'grep -r secret src',
    'find src -name "*.js" -delete',
    'find . -path ./src/generated -exec rm {} +',
  ])('%j may have touched it: unknown, not ok', (line) => {
    expect(verdictOver(GENERATED_UNTOUCHED, line)).toBe('unknown')
  })

  it.each(['rm -rf src', 'mv src /tmp/old-src', 'cp -r empty/. src', 'find src -name "*.js" -delete', 'find . -name out.js -exec rm {} +'])('%j may have written under it: a writing operation is unknown, not ok', (line) => {
    expect(verdictOver(GENERATED_NOT_WRITTEN, line)).toBe('unknown')
  })

  it.each([
    [GENERATED_UNTOUCHED, 'rm -rf build node_modules', 'ok'],
    // `*.engineering/*` anywhere: whether `build/` holds a store is the tree's to say, as with any folder a word names.
    ['{tool.absent: {subject: {glob: "file:*.engineering/*"}}}', 'rm -rf build', 'ok'],
    // A file a folder holds by the selector's letters, however hidden, may be gone.
    ['{tool.absent: {subject: {glob: "file:src/.env*"}}}', 'rm -rf src', 'unknown'],
    // Without going down, `rm src` removes no folder.
    [GENERATED_UNTOUCHED, 'rm -f src', 'ok'],
  ])('a folder holds the selector’s files by its letters only, never by its wildcard’s guess: under %s, %j is %s', (spec, line, verdict) => {
    expect(verdictOver(spec, line)).toBe(verdict)
  })

  it.each([
    ['npx prettier --write src', 'unknown'],
    ['npx eslint --fix src/', 'unknown'],
    ['git -C . add src', 'unknown'],
    ["python3 - <<'PY'\nprint(\"the src folder is tidy\")\nPY", 'ok'],
    ['npx prettier --write lib', 'ok'],
  ])('a folder given whole to a program nobody reads may be one it goes down through; a word inside code or prose is not: %j is %s', (line, verdict) => {
    expect(verdictOver(GENERATED_UNTOUCHED, line)).toBe(verdict)
  })

  it('such a folder is named as a path: `src/` is `src`', () => {
    expect(rowOf(GENERATED_UNTOUCHED, bash('npx eslint --fix src/')).outcome).toMatchObject({ reason: 'operands_unread', words: ['src'] })
  })

  it.each(['xargs rm < list.txt', 'git ls-files src/generated | xargs rm', 'git -C src rm generated/out.js', 'make --directory=src generated/out.js'])(
    'what `xargs` reads from its input, and the folder a program’s option names, are the program’s words too: %j is unknown',
    (line) => {
      expect(verdictOver(GENERATED_UNTOUCHED, line)).toBe('unknown')
    },
  )

  it('what `xargs` reads is named `$(stdin)`', () => {
    expect(rowOf(GENERATED_UNTOUCHED, bash('xargs rm < list.txt')).outcome).toMatchObject({ reason: 'operands_unread', words: ['$(stdin)'] })
  })
})
