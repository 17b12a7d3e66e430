import { describe, expect, it } from 'vitest'
import { call, claudeToolRun, closed, ended, metaharness, result, rowOf, start } from '../../../test/helpers/trace.js'

/**
 * Shell lines that write a file through a program other than the coreutils. Each line below
 * rewrites or removes `src/generated/out.js` (or the whole folder it runs in) in a session opened in
 * `/work`, and "nothing under `src/generated/` was written" (`file.write`, `file.edit`) was `ok`
 * over every one: the checker knew only redirections, `tee`, `sed -i`, `cp`, `mv`, `rm`… as writers.
 */

const bash = (...lines: string[]): string => claudeToolRun(lines.map((command) => ({ name: 'Bash', input: { command } })), { cwd: '/work' })

const NOT_WRITTEN = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:src/generated/*"}}}'
const UNTOUCHED = '{tool.absent: {subject: {glob: "file:src/generated/*"}}}'

/** The row's verdict over one line, read as it is and converted by the Claude Code adapter: both must agree. */
function verdictOver(spec: string, line: string): string {
  const asIs = rowOf(spec, bash(line)).verdict
  expect(rowOf(spec, bash(line), { format: 'claude-code/stream-json' }).verdict, `${line} (converted)`).toBe(asIs)
  return asIs
}

describe('programs that write the files they are given', () => {
  it.each([
    'git rm src/generated/out.js',
    'git checkout -- src/generated/out.js',
    'git checkout --theirs src/generated/out.js',
    'git restore src/generated/out.js',
    'git mv src/generated/out.js src/out.js',
    "perl -pi -e 's/a/b/' src/generated/out.js",
    "gawk -i inplace '{print}' src/generated/out.js",
    'sort -o src/generated/out.js list.txt',
    'curl -sL -o src/generated/out.js http://127.0.0.1/out.js',
    'wget -O src/generated/out.js http://127.0.0.1/out.js',
    'gzip src/generated/out.js',
    'unzip -o bundle.zip -d src/generated',
    'tar -xf bundle.tar -C src',
    'rsync -a --delete build/ src/generated/',
    'npx prettier --write src/generated/out.js',
    'eslint --fix src',
    'ruff format src',
    'gofmt -w src/generated/out.js',
    'vim -c wq src/generated/out.js',
    'cd src && git checkout -- generated/out.js',
    `python3 -c "open('src/generated/out.js', 'w').write('')"`,
    `node -e "require('fs').rmSync('src/generated', {recursive: true})"`,
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: src/generated/out.js\n*** End Patch\nEOF\ngit status",
  ])('%j may have written the file: a writing operation is unknown, not ok', (line) => {
    expect(verdictOver(NOT_WRITTEN, line)).toBe('unknown')
    expect(rowOf(NOT_WRITTEN, bash(line)).outcome).toMatchObject({ reason: 'shell_files' })
  })

  it.each(['git checkout -- .', 'git reset --hard', 'git stash', 'git pull', 'git checkout main', 'prettier --write .', 'cargo fmt', 'patch -p1 < fix.diff', 'tar xzf release.tgz', 'rm -rf *'])(
    '%j rewrites what lies here, and no word names the file: unknown for a writing operation and for any call',
    (line) => {
      expect(verdictOver(NOT_WRITTEN, line)).toBe('unknown')
      expect(verdictOver(UNTOUCHED, line)).toBe('unknown')
    },
  )

  it('a package manager records into its manifest and lock, which no word of the line names', () => {
    const manifestUntouched = '{tool.absent: {subject: {equals: "file:package.json"}}}'
    expect(rowOf(manifestUntouched, bash('pnpm add lucide-react')).outcome).toMatchObject({ reason: 'operands_unread', words: ['package.json'] })
    expect(verdictOver('{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:*.lock*"}}}', 'npm install')).toBe('ok')
    expect(verdictOver('{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:package-lock.json"}}}', 'npm install')).toBe('unknown')
    // Installing globally records nothing in the project; running a script is not recording.
    expect(verdictOver(manifestUntouched, 'npm install -g typescript')).toBe('ok')
    expect(verdictOver(manifestUntouched, 'npm run build')).toBe('ok')
  })

  it.each([
    'git status',
    'git diff -- src/generated/out.js',
    'git log -p src/generated/out.js',
    'git checkout -b feature/x',
    'git restore --staged src/generated/out.js',
    'git rm --cached src/generated/out.js',
    'git stash list',
    "perl -ne 'print' src/generated/out.js",
    'sort src/generated/out.js',
    'curl -s http://127.0.0.1/out.js',
    'tar -tzf bundle.tgz',
    'gzip -c src/generated/out.js',
    'prettier --check src/generated/out.js',
    'ruff check src',
    'cargo fmt --check',
    'npm test',
    `python3 -c "print(open('src/generated/out.js').read())"`,
  ])('%j only looks: a writing operation stays ok', (line) => {
    expect(verdictOver(NOT_WRITTEN, line)).toBe('ok')
  })

  it('a selector that names its tools sees the call as it is', () => {
    expect(verdictOver('{tool.absent: {tools: [Write, Edit], subject: {glob: "file:src/generated/*"}}}', 'git rm src/generated/out.js')).toBe('ok')
  })
})

describe('code a harness’s own tool runs', () => {
  /** A closed run of one shell-operation call that runs code, as hermes' `execute_code` and OpenHands' `execute_ipython_cell` are. */
  const ran = (name: string, code: string): string => {
    const events = [start(), call('c-1', name, { code }, { operations: ['shell'], subjects: [] }), result('c-1'), ended()]
    return metaharness([...events, closed(events.length)])
  }

  it.each([
    ['execute_code', "open('src/generated/out.js', 'w').write('x')"],
    ['execute_code', "import shutil\nshutil.rmtree('src/generated')"],
    ['execute_ipython_cell', "from pathlib import Path\nPath('src/generated/out.js').write_text('')"],
  ])('%s over code that writes a path it quotes: unknown, not ok', (name, code) => {
    expect(rowOf(NOT_WRITTEN, ran(name, code)).outcome).toMatchObject({ reason: 'shell_files' })
    expect(rowOf(UNTOUCHED, ran(name, code)).verdict).toBe('unknown')
  })

  it('code that only reads writes nothing, but a path inside it may be what it read', () => {
    const reads = ran('execute_code', "print(open('src/generated/out.js').read())")
    expect(rowOf(NOT_WRITTEN, reads).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {operations: [file.read], subject: {glob: "file:src/generated/*"}}}', reads).verdict).toBe('unknown')
    expect(rowOf(NOT_WRITTEN, ran('execute_code', "print('hello')")).verdict).toBe('ok')
  })
})

