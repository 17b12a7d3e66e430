import { describe, expect, it } from 'vitest'
import { rowOf, streamJson } from '../../../test/helpers/trace.js'

/**
 * Words a shell changes before a program sees them, and programs that act on files no word names.
 * Each line below removes `src/generated/out.js` in a session opened in `/work`, and "nothing under
 * `src/generated/` was touched" was `ok` over every one of them: `rm $F`, a loop's `rm "$f"`, `rm -rf
 * src`, `rm -rf src/{generated,other}`, `find src -delete`, `xargs rm < list`, `git -C src rm …`,
 * `rm ../work/src/…`, `rm ~/src/…`. The row is now `gap` where the line names the file, and
 * `unknown` where only the shell or the program knows which files it touched; never `ok`.
 */

const init = { type: 'system', subtype: 'init', session_id: 's', cwd: '/work', tools: ['Bash'], model: 'm', permissionMode: 'default', apiKeySource: 'none' }
const end = { type: 'result', subtype: 'success', is_error: false, session_id: 's', num_turns: 2, result: 'done', total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } }

function bash(...lines: string[]): string {
  const records: Record<string, unknown>[] = [init]
  lines.forEach((command, n) => {
    records.push({ type: 'assistant', session_id: 's', message: { id: `m${n}`, role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: `t${n}`, name: 'Bash', input: { command } }], usage: { input_tokens: 1, output_tokens: 1 } } })
    records.push({ type: 'user', session_id: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: 'ok' }] } })
  })
  return streamJson([...records, end])
}

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

  it('an expansion the selector cannot match, the folder itself, and text with blanks stay decided', () => {
    expect(verdictOver(GENERATED_UNTOUCHED, 'rm -rf build/{dist,cache}')).toBe('ok')
    expect(verdictOver(GENERATED_UNTOUCHED, 'rm -f $TMPDIR/x.lock')).toBe('unknown')
    expect(verdictOver(GENERATED_UNTOUCHED, 'PYTHONPATH=$PWD pytest -q && ls ~')).toBe('ok')
    expect(verdictOver(GENERATED_UNTOUCHED, 'git commit -F - <<\'EOF\'\nMention `$(src)` and *.js in prose\nEOF')).toBe('ok')
    // A home folder names a path from there: `~/.cache/pip` is never the session's `src/generated`.
    expect(verdictOver(GENERATED_UNTOUCHED, 'rm -rf ~/.cache/pip')).toBe('ok')
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

  it('a folder that holds the selector’s files by its letters only: another folder, or a wildcard’s guess, stays decided', () => {
    expect(verdictOver(GENERATED_UNTOUCHED, 'rm -rf build node_modules')).toBe('ok')
    // `*.engineering/*` anywhere: whether `build/` holds a store is the tree's to say, as with any folder a word names.
    expect(verdictOver('{tool.absent: {subject: {glob: "file:*.engineering/*"}}}', 'rm -rf build')).toBe('ok')
    // A file a folder holds by the selector's letters, however hidden, may be gone.
    expect(verdictOver('{tool.absent: {subject: {glob: "file:src/.env*"}}}', 'rm -rf src')).toBe('unknown')
    // Without going down, `rm src` removes no folder.
    expect(verdictOver(GENERATED_UNTOUCHED, 'rm -f src')).toBe('ok')
  })

  it('a folder given whole to a program nobody reads may be one it goes down through; a word inside code or prose is not', () => {
    for (const line of ['npx prettier --write src', 'npx eslint --fix src/', 'git -C . add src']) expect(verdictOver(GENERATED_UNTOUCHED, line), line).toBe('unknown')
    expect(rowOf(GENERATED_UNTOUCHED, bash('npx eslint --fix src/')).outcome).toMatchObject({ reason: 'operands_unread', words: ['src'] })
    expect(verdictOver(GENERATED_UNTOUCHED, 'python3 - <<\'PY\'\nprint("the src folder is tidy")\nPY')).toBe('ok')
    expect(verdictOver(GENERATED_UNTOUCHED, 'npx prettier --write lib')).toBe('ok')
  })

  it('what `xargs` reads from its input, and the folder a program’s option names, are the program’s words too', () => {
    expect(verdictOver(GENERATED_UNTOUCHED, 'xargs rm < list.txt')).toBe('unknown')
    expect(verdictOver(GENERATED_UNTOUCHED, 'git ls-files src/generated | xargs rm')).toBe('unknown')
    expect(verdictOver(GENERATED_UNTOUCHED, 'git -C src rm generated/out.js')).toBe('unknown')
    expect(verdictOver(GENERATED_UNTOUCHED, 'make --directory=src generated/out.js')).toBe('unknown')
    expect(rowOf(GENERATED_UNTOUCHED, bash('xargs rm < list.txt')).outcome).toMatchObject({ reason: 'operands_unread', words: ['$(stdin)'] })
  })
})
