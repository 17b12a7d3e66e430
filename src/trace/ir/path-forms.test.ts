import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { call, closedRun, result, rowOf, type Event } from '../../../test/helpers/trace.js'
import { otherPathForms, sessionFolder } from './path-forms.js'

describe('the other spellings of a recorded path', () => {
  it('an absolute path inside the session’s folder is also read relative to it, and a relative one as absolute', () => {
    expect(otherPathForms('/w/src/a.ts', '/w', '')).toEqual(['src/a.ts'])
    expect(otherPathForms('src/a.ts', '/w', '')).toEqual(['/w/src/a.ts'])
    expect(otherPathForms('./src/../src/a.ts', '/w', '')).toEqual(['src/a.ts', '/w/src/a.ts'])
    expect(otherPathForms('/w//src/./a.ts', '/w', '')).toEqual(['/w/src/a.ts', 'src/a.ts'])
  })

  it('a path outside the folder, a home path, and a relative path from a folder a shell moved to get no guessed spelling', () => {
    expect(otherPathForms('/etc/passwd', '/w', '')).toEqual([])
    expect(otherPathForms('/wx/a.ts', '/w', '')).toEqual([])
    expect(otherPathForms('~/notes.md', '/w', '')).toEqual([])
    expect(otherPathForms('generated/out.js', '/w', 'src/')).toEqual([])
    expect(otherPathForms('../up.txt', '/w/app', '')).toEqual(['/w/up.txt'])
    // Without a folder only the path itself is tidied.
    expect(otherPathForms('./a.ts', null, '')).toEqual(['a.ts'])
    expect(otherPathForms('a.ts', null, '')).toEqual([])
  })

  it('a Windows path is also read with `/` for `\\`, and inside a Windows folder also relative to it', () => {
    expect(otherPathForms('C:\\Users\\m\\proj\\.git\\config', null, '')).toEqual(['C:/Users/m/proj/.git/config'])
    expect(otherPathForms('C:\\Users\\m\\proj\\src\\a.ts', sessionFolder('C:\\Users\\m\\proj\\'), '')).toEqual(['C:/Users/m/proj/src/a.ts', 'src/a.ts'])
    expect(otherPathForms('src\\a.ts', sessionFolder('C:\\Users\\m\\proj'), '')).toEqual(['src/a.ts', 'C:/Users/m/proj/src/a.ts'])
    expect(otherPathForms('C:/Users/m/proj/../x.txt', null, '')).toEqual(['C:/Users/m/x.txt'])
  })

  it('the session’s folder must be absolute to place anything', () => {
    expect(sessionFolder('/w/')).toBe('/w')
    expect(sessionFolder('<e2e-root>/work')).toBeNull()
    expect(sessionFolder('/')).toBeNull()
    expect(sessionFolder('C:\\')).toBeNull()
    expect(sessionFolder('D:\\work\\')).toBe('D:/work')
    expect(sessionFolder(null)).toBeNull()
  })
})

/** A closed run in a session opened in `/home/u/proj`. */
const stream = (events: Event[], cwd: string | null = '/home/u/proj'): string => closedRun(events, { cwd })

const write = (id: string, path: string): Event[] => [call(id, 'Write', { file_path: path, content: 'x' }, { operations: ['file.write'], subjects: [`file:${path}`] }), result(id)]
const GENERATED_UNTOUCHED = '{tool.absent: {subject: {glob: "file:src/generated/*"}}}'

describe('a selector naming a file one way, over a call that recorded it another', () => {
  it('Claude Code writes absolute paths: "nothing under src/generated/ was touched" is a gap, not ok', () => {
    const row = rowOf(GENERATED_UNTOUCHED, stream(write('c-1', '/home/u/proj/src/generated/out.js')))
    expect(row).toMatchObject({ verdict: 'gap', outcome: { events: [1] } })
  })

  it('a count and an order see it too; a file outside the folder does not', () => {
    expect(rowOf('{tool.called: {operations: [file.write], subject: {glob: "file:src/*"}}}', stream(write('c-1', '/home/u/proj/src/a.ts'))).verdict).toBe('ok')
    expect(rowOf(GENERATED_UNTOUCHED, stream(write('c-1', '/tmp/src/generated/out.js'))).verdict).toBe('ok')
    const order = '{order: {first: {subject: {glob: "file:tests/*"}}, before: {subject: {glob: "file:src/*"}}}}'
    expect(rowOf(order, stream([...write('c-1', '/home/u/proj/src/a.ts'), ...write('c-2', '/home/u/proj/tests/a.test.ts')])).verdict).toBe('gap')
  })

  it('an `args` matcher over a path argument reads its other spellings too', () => {
    expect(rowOf('{tool.absent: {tools: [Write], args: {file_path: {glob: "src/generated/*"}}}}', stream(write('c-1', '/home/u/proj/src/generated/out.js'))).verdict).toBe('gap')
    // Any other argument is matched as recorded: a file's content that spells a path is no path.
    const spelt = [call('c-1', 'Write', { file_path: '/home/u/proj/notes.txt', content: '/home/u/proj/src/a.ts' }, { operations: ['file.write'], subjects: ['file:/home/u/proj/notes.txt'] }), result('c-1')]
    expect(rowOf('{tool.absent: {tools: [Write], args: {content: {glob: "src/*"}}}}', stream(spelt)).verdict).toBe('ok')
  })

  it('`./src/…` is `src/…`, and a relative path is matched by a selector written absolute', () => {
    const removed = [call('c-1', 'Bash', { command: 'rm ./src/generated/out.js' }, { operations: ['shell'], subjects: ['proc:rm', 'file:./src/generated/out.js'] }), result('c-1')]
    expect(rowOf(GENERATED_UNTOUCHED, stream(removed)).verdict).toBe('gap')
    expect(rowOf('{tool.absent: {subject: {glob: "file:/home/u/proj/src/*"}}}', stream(write('c-1', 'src/a.ts'))).verdict).toBe('gap')
  })

  it('in a session that named no folder, an absolute path a relative selector may name leaves the row unknown, never ok', () => {
    const row = rowOf(GENERATED_UNTOUCHED, stream(write('c-1', '/home/u/proj/src/generated/out.js'), null))
    expect(row).toMatchObject({ verdict: 'unknown', outcome: { reason: 'session_folder_unknown', events: [1], paths: ['/home/u/proj/src/generated/out.js'] } })
    // A path no folder of which could make it match, and a selector written to match absolute paths, stay decided.
    expect(rowOf(GENERATED_UNTOUCHED, stream(write('c-1', '/home/u/proj/lib/out.js'), null)).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {subject: {glob: "file:*/src/generated/*"}}}', stream(write('c-1', '/home/u/proj/src/generated/out.js'), null)).verdict).toBe('gap')
  })

  it('a real Gemini CLI session on Windows (wild corpus): its read of `C:\\…\\.git\\config` is a read of `*/.git/config`', async () => {
    const { checkTranscriptFile } = await import('../check/check.js')
    const { readSpec } = await import('../spec/read.js')
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-git-dir\n    expect: {tool.absent: {subject: {glob: "file:*.git/*"}}}\n  - id: read-git-config\n    expect: {tool.called: {subject: {glob: "file:*/.git/config"}}}\n')
    const report = await checkTranscriptFile(spec, resolve(import.meta.dirname, '../../../test/fixtures/wild/gemini-session/session-2026-01-02T02-34-9330d511.json'))
    expect(report.expectations.map((row) => row.verdict)).toEqual(['gap', 'ok'])
  })

  it('in a session that named no folder, an absolute word a relative selector may name leaves the row unknown too', () => {
    const gitRm = [call('c-1', 'Bash', { command: 'git rm /home/u/proj/src/generated/out.js' }, { operations: ['shell'], subjects: ['proc:git'] }), result('c-1')]
    expect(rowOf(GENERATED_UNTOUCHED, stream(gitRm, null))).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['/home/u/proj/src/generated/out.js'] } })
    // A file the line writes, for a selector by a writing operation: "tests before code".
    const removed = [call('c-1', 'Bash', { command: 'rm /home/u/proj/src/a.ts' }, { operations: ['shell'], subjects: ['proc:rm', 'file:/home/u/proj/src/a.ts'] }), result('c-1')]
    const order = '{order: {first: {operations: [file.write], subject: {glob: "file:tests/*"}}, before: {operations: [file.write], subject: {glob: "file:src/*"}}}}'
    const transcript = stream([...removed, ...write('c-2', 'tests/a.test.ts'), ...write('c-3', 'src/b.ts')], null)
    expect(rowOf(order, transcript)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: ['/home/u/proj/src/a.ts'] } })
  })

  it('a word no reader can place is read the same ways: an absolute `git rm` operand leaves the row unknown, not ok', () => {
    const gitRm = [call('c-1', 'Bash', { command: 'git rm /home/u/proj/src/generated/out.js' }, { operations: ['shell'], subjects: ['proc:git'] }), result('c-1')]
    expect(rowOf(GENERATED_UNTOUCHED, stream(gitRm))).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['/home/u/proj/src/generated/out.js'] } })
  })
})
