import { describe, expect, it } from 'vitest'
import { unclassifiedToolWarning } from '../../events/unclassified-tool.js'
import { call, closed, closedRun, ended, metaharness, opaque, result, rowOf, start, type Event } from '../../../test/helpers/trace.js'
import { inspectTranscript } from '../census.js'
import { reportToText } from './render.js'
import { checkTranscriptText } from './check.js'
import { readSpec } from '../spec/read.js'

/**
 * A call of a tool no operation table knows carries no operations on the wire; the adapter's
 * `unclassified_tool` warning says so. A selector by operation (or by subject alone) cannot see such a call, so it never
 * lets an absence pass nor a count by operation stand as exact; a selector by name still sees it.
 */

async function* chunks(text: string): AsyncGenerator<string> {
  yield text
}

const warned = (tool: string): Event => ({ ...unclassifiedToolWarning(tool, 'test') })

/** A closed run: one classified write, then two calls of an unknown tool `Frobnicate` (events 2 and 4). */
function run(extra: Event[] = [], warn = true): string {
  const events: Event[] = [
    start(),
    call('c-1', 'Write', { file_path: '/w/a.txt', content: 'x' }, { operations: ['file.write'] }),
    result('c-1'),
    ...(warn ? [warned('Frobnicate')] : []),
    call('c-2', 'Frobnicate', { command: 'make all' }),
    result('c-2'),
    call('c-3', 'Frobnicate', { command: 'make clean' }),
    result('c-3'),
    ...extra,
    ended(),
  ]
  return metaharness([...events, closed(events.length)])
}

describe('unclassified calls in the checker', () => {
  it('an absence over operations is unknown, naming the calls and tools, never ok', () => {
    const row = rowOf('{tool.absent: {operations: [shell]}}', run())
    expect(row.verdict).toBe('unknown')
    expect(row.outcome).toEqual({ outcome: 'undecidable', reason: 'unclassified_calls', events: [3, 5], tools: ['Frobnicate'] })
  })

  it('an absence over operations still gaps on a classified call that matches', () => {
    expect(rowOf('{tool.absent: {operations: [file.write]}}', run()).verdict).toBe('gap')
  })

  it('a selector by name sees an unclassified call as it is', () => {
    expect(rowOf('{tool.absent: {tools: [Frobnicate]}}', run()).verdict).toBe('gap')
    expect(rowOf('{tool.called: {tools: [Frobnicate], count: {exactly: 2}}}', run()).verdict).toBe('ok')
    // A name in `tools` beside the operations: the named calls are counted, so they leave nothing unseen.
    expect(rowOf('{tool.absent: {tools: [Frobnicate], operations: [shell]}}', run()).verdict).toBe('gap')
  })

  it('an absence over a subject alone is unknown: every call is in its scope, and an unknown tool’s line was never read for the programs it starts', () => {
    const row = rowOf('{tool.absent: {subject: {equals: "proc:make"}}}', run())
    expect(row.verdict).toBe('unknown')
    expect(row.outcome).toEqual({ outcome: 'undecidable', reason: 'unclassified_calls', events: [3, 5], tools: ['Frobnicate'] })
    // With a tool named, the scope is that tool's calls, which the unknown tool's are not.
    expect(rowOf('{tool.absent: {tools: [Bash], subject: {equals: "proc:make"}}}', run()).verdict).toBe('ok')
    // A subject the unknown call does carry still rules it out when none matches (it was read from a path argument).
    expect(rowOf('{tool.absent: {subject: {equals: "proc:make"}}}', metaharness([start(), warned('Frobnicate'), call('c-1', 'Frobnicate', { path: 'a.txt' }, { subjects: ['file:a.txt'] }), result('c-1'), ended(), closed(5)])).verdict).toBe('ok')
  })

  it('arguments are recorded facts: a call whose arguments fail the selector cannot be one it missed', () => {
    const row = rowOf('{tool.absent: {operations: [shell], args: {command: {contains: "rm -rf"}}}}', run())
    expect(row.verdict).toBe('ok')
  })

  it('a count by operation is a lower bound: holds for every larger value → ok, ceiling exceeded → gap, else unknown', () => {
    expect(rowOf('{tool.called: {operations: [file.write], count: {at_least: 1}}}', run()).verdict).toBe('ok')
    const floor = rowOf('{tool.called: {operations: [shell], count: {at_least: 1}}}', run())
    expect(floor.verdict).toBe('unknown')
    expect(floor.outcome).toMatchObject({ reason: 'unclassified_calls', events: [3, 5], tools: ['Frobnicate'] })
    expect(rowOf('{tool.called: {operations: [shell], count: {at_most: 0}}}', run()).verdict).toBe('unknown')
    const twoWrites = [call('c-9', 'Write', { file_path: '/w/b.txt', content: 'y' }, { operations: ['file.write'] }), result('c-9')]
    expect(rowOf('{tool.called: {operations: [file.write], count: {at_most: 1}}}', run(twoWrites)).verdict).toBe('gap')
  })

  it('a repetition count by operation is a lower bound too', () => {
    expect(rowOf('{tool.repeated: {operations: [shell], count: {at_most: 0}}}', run())).toMatchObject({ verdict: 'unknown', outcome: { reason: 'unclassified_calls' } })
  })

  it('an order is undecided only by an unseen call earlier than the occurrence that decided it', () => {
    // run(): Write at 1, Frobnicate (unclassified) at 3 and 5.
    const writeFirst = rowOf('{order: {first: {operations: [file.write]}, before: {operations: [shell]}}}', run([call('c-9', 'Bash', { command: 'ls' }, { operations: ['shell'] })]))
    expect(writeFirst.verdict).toBe('ok')
    const shellFirst = rowOf('{order: {first: {operations: [shell]}, before: {operations: [file.write]}}}', run([call('c-9', 'Bash', { command: 'ls' }, { operations: ['shell'] })]))
    expect(shellFirst.verdict).toBe('gap')
    const late = metaharness([start(), warned('Frobnicate'), call('c-1', 'Frobnicate', {}), call('c-2', 'Write', { file_path: '/w/a' }, { operations: ['file.write'] }), call('c-3', 'Bash', {}, { operations: ['shell'] }), ended(), closed(6)])
    expect(rowOf('{order: {first: {operations: [shell]}, before: {operations: [file.write]}}}', late)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'unclassified_calls', events: [1] } })
    expect(rowOf('{order: {first: {operations: [file.write]}, before: {operations: [shell]}}}', late)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'unclassified_calls', events: [1] } })
  })

  it('the results family: a claim over every result, a failure count or a rate by operation waits on the unseen calls', () => {
    const withShell = run([call('c-9', 'Bash', { command: 'ls' }, { operations: ['shell'] }), result('c-9', { is_error: true })])
    expect(rowOf('{tool.failed: {operations: [shell], count: {at_least: 2}}}', withShell)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'unclassified_calls' } })
    // One failure already breaks a ceiling of zero, and meets a floor of one, whatever the unseen calls were.
    expect(rowOf('{tool.failed: {operations: [shell], count: {at_most: 0}}}', withShell).verdict).toBe('gap')
    expect(rowOf('{tool.failed: {operations: [shell], count: {at_least: 1}}}', withShell).verdict).toBe('ok')
    expect(rowOf('{tool.error_rate: {operations: [shell], rate: {at_most: 1.0}}}', withShell)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'unclassified_calls' } })
    expect(rowOf('{tool.result_bytes: {operations: [shell], bytes: {at_most: 100000}}}', withShell)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'unclassified_calls' } })
    // No classified call in scope at all: the unseen calls are the reason, not "nothing in scope".
    expect(rowOf('{tool.failed: {operations: [web.read], count: {at_most: 0}}}', run())).toMatchObject({ verdict: 'unknown', outcome: { reason: 'unclassified_calls' } })
    // By name, the same calls are seen and decided.
    expect(rowOf('{tool.failed: {tools: [Frobnicate], count: {at_most: 0}}}', run()).verdict).not.toBe('unknown')
  })

  it('opaque events are named first when both stand in the way', () => {
    expect(rowOf('{tool.called: {operations: [shell], count: {at_least: 1}}}', run([opaque()])).outcome).toMatchObject({ reason: 'opaque_events' })
  })

  it('without the warning (an upstream-written stream) empty operations decide as today', () => {
    expect(rowOf('{tool.absent: {operations: [shell]}}', run([], false)).verdict).toBe('ok')
    expect(rowOf('{tool.called: {operations: [shell], count: {at_least: 1}}}', run([], false)).verdict).toBe('gap')
  })

  it('the warning marks only calls of the tool it names that carry no operations', () => {
    const text = metaharness([start(), warned('Frobnicate'), call('c-1', 'Frobnicate', {}, { operations: ['shell'] }), call('c-2', 'Other', {}), ended(), closed(5)])
    expect(rowOf('{tool.absent: {operations: [web.read]}}', text).verdict).toBe('ok')
  })

  it('the text report says which calls could not be seen', () => {
    const spec = readSpec('format: trace-spec/1\nid: unit/unclassified\nexpectations:\n  - id: no-shell\n    expect: {tool.absent: {operations: [shell]}}\n')
    const text = reportToText(checkTranscriptText(spec, run()))
    expect(text).toContain('Frobnicate')
    expect(text).toMatch(/unk\s+no-shell/)
  })

  it('inspect counts unclassified calls by tool', async () => {
    const census = await inspectTranscript(chunks(run()))
    expect(census.unclassified_calls).toEqual({ Frobnicate: 2 })
    expect((await inspectTranscript(chunks(run([], false)))).unclassified_calls).toEqual({})
  })
})

/**
 * A shell line that names its program only through an expansion (`t=rm; $t x`) gives `proc:$t`:
 * which program ran is the shell's to decide, so a selector by subject that could match a program
 * cannot rule the call out (Claude Code 2.1.328 ran this line and deleted the file, e2e).
 */
describe('programs a shell line names only through an expansion', () => {
  /** A closed run: `ls`, then `t=rm; $t scratch.tmp` (event 3), both classified shell calls. */
  function expanded(line = 't=rm; $t scratch.tmp', subjects = ['proc:$t']): string {
    const events: Event[] = [
      start(),
      call('c-1', 'Bash', { command: 'ls' }, { operations: ['shell'], subjects: ['proc:ls'] }),
      result('c-1'),
      call('c-2', 'Bash', { command: line }, { operations: ['shell'], subjects }),
      result('c-2'),
      ended(),
    ]
    return metaharness([...events, closed(events.length)])
  }

  it('an absence of a program by subject is unknown, naming the calls and the programs, never ok', () => {
    const row = rowOf('{tool.absent: {subject: {equals: "proc:rm"}}}', expanded())
    expect(row.verdict).toBe('unknown')
    expect(row.outcome).toEqual({ outcome: 'undecidable', reason: 'programs_unnamed', events: [3], programs: ['$t'] })
    // A glob and a regex that could name a program wait alike; a named program still gaps.
    expect(rowOf('{tool.absent: {subject: {glob: "proc:r*"}}}', expanded()).verdict).toBe('unknown')
    expect(rowOf('{tool.absent: {subject: {regex: "^proc:(rm|shred)$"}}}', expanded()).verdict).toBe('unknown')
    expect(rowOf('{tool.absent: {subject: {equals: "proc:ls"}}}', expanded()).verdict).toBe('gap')
  })

  it('a subject matcher that cannot name a program, or a call out of scope, decides as before', () => {
    expect(rowOf('{tool.absent: {subject: {glob: "file:.engineering/*"}}}', expanded()).verdict).toBe('ok')
    // The file is another matter: whatever `$t` is, it was given `scratch.tmp`.
    expect(rowOf('{tool.absent: {subject: {exact: "file:scratch.tmp"}}}', expanded()).outcome).toEqual({ outcome: 'undecidable', reason: 'operands_unread', events: [3], words: ['scratch.tmp'] })
    expect(rowOf('{tool.absent: {tools: [Read], subject: {equals: "proc:rm"}}}', expanded()).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {tools: [Bash], subject: {equals: "proc:rm"}}}', expanded()).verdict).toBe('unknown')
    // Arguments are recorded facts: a call whose command fails them was never in scope.
    expect(rowOf('{tool.absent: {subject: {equals: "proc:rm"}, args: {command: {contains: "shred"}}}}', expanded()).verdict).toBe('ok')
  })

  it('`[` is the test program, and a named program beside an expansion is still seen', () => {
    expect(rowOf('{tool.absent: {subject: {equals: "proc:rm"}}}', expanded('[ -f x ] && ls', ['proc:[', 'proc:ls'])).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {subject: {equals: "proc:rm"}}}', expanded('rm x; $t y', ['proc:rm', 'proc:$t'])).verdict).toBe('gap')
    for (const program of ['$(which rm)', '`which rm`', 'r*', 'r?', '\\x72m', '{rm,x}', 'rm{,}', '[r]m']) {
      expect(rowOf('{tool.absent: {subject: {equals: "proc:rm"}}}', expanded(`${program} x`, [`proc:${program}`])).verdict, program).toBe('unknown')
    }
  })

  it('an order is undecided by an unnamed program only when it comes before the occurrence that decided it', () => {
    const events: Event[] = [
      start(),
      call('c-1', 'Bash', { command: '$t a' }, { operations: ['shell'], subjects: ['proc:$t'] }),
      result('c-1'),
      call('c-2', 'Bash', { command: 'ls' }, { operations: ['shell'], subjects: ['proc:ls'] }),
      result('c-2'),
      call('c-3', 'Bash', { command: 'rm a' }, { operations: ['shell'], subjects: ['proc:rm'] }),
      result('c-3'),
      ended(),
    ]
    const transcript = metaharness([...events, closed(events.length)])
    // rm came after ls, but `$t` at event 1 may have been an rm before it.
    expect(rowOf('{order: {first: {subject: {equals: "proc:rm"}}, before: {subject: {equals: "proc:ls"}}}}', transcript).outcome).toEqual({ outcome: 'undecidable', reason: 'programs_unnamed', events: [1], programs: ['$t'] })
    // ls before rm waits too: `$t` at event 1 may have been an rm before the ls.
    expect(rowOf('{order: {first: {subject: {equals: "proc:ls"}}, before: {subject: {equals: "proc:rm"}}}}', transcript).verdict).toBe('unknown')
  })

  it('a count by subject is a lower bound; the text report and inspect name the programs', async () => {
    expect(rowOf('{tool.called: {subject: {equals: "proc:rm"}, count: {at_least: 1}}}', expanded()).verdict).toBe('unknown')
    expect(rowOf('{tool.called: {subject: {equals: "proc:ls"}, count: {exactly: 1}}}', expanded()).verdict).toBe('unknown')
    const spec = readSpec('format: trace-spec/1\nid: unit/unnamed\nexpectations:\n  - id: no-rm\n    expect: {tool.absent: {subject: {equals: "proc:rm"}}}\n')
    expect(reportToText(checkTranscriptText(spec, expanded()))).toContain('only as `$t`')
    expect((await inspectTranscript(chunks(expanded()))).unnamed_programs).toEqual({ $t: 1 })
    expect((await inspectTranscript(chunks(run()))).unnamed_programs).toEqual({})
  })
})

describe('words given to a program no reader reads for its files', () => {
  /** A closed run of one shell call per line, each with the subjects a reader gave it. */
  function lines(...calls: [string, string[]][]): string {
    const events: Event[] = [start()]
    calls.forEach(([line, subjects], n) => events.push(call(`c-${n + 1}`, 'Bash', { command: line }, { operations: ['shell'], subjects }), result(`c-${n + 1}`)))
    events.push(ended())
    return metaharness([...events, closed(events.length)])
  }
  const storeUntouched = '{tool.absent: {subject: {glob: "file:*.engineering/*"}}}'

  it('leave an absence by file subject undecided, naming the calls and the words, never ok', () => {
    const transcript = lines(['ls', ['proc:ls']], ['git rm .engineering/notes.md && git commit -m tidy', ['proc:git']])
    expect(rowOf(storeUntouched, transcript).outcome).toEqual({ outcome: 'undecidable', reason: 'operands_unread', events: [3], words: ['.engineering/notes.md'] })
    const spec = readSpec(`format: trace-spec/1\nid: unit/operands\nexpectations:\n  - id: store\n    expect: ${storeUntouched}\n`)
    expect(reportToText(checkTranscriptText(spec, transcript))).toContain('named `.engineering/notes.md` where no reader can tell which files it touched')
  })

  it('a word in a script a program runs counts too; a printer’s words and a word the selector would not match do not', () => {
    expect(rowOf(storeUntouched, lines([`python3 -c "open('.engineering/n.md','w')"`, ['proc:python3']])).verdict).toBe('unknown')
    // A path inside code is matched, and named, on its own: a glob anchored at the store's name sees it too.
    const anchored = '{tool.absent: {subject: {glob: "file:.engineering/*"}}}'
    expect(rowOf(anchored, lines([`python3 -c "open('.engineering/n.md','w')"`, ['proc:python3']])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering/n.md'] })
    // The script an interpreter reads on its stdin, from a here-document or a pipe, is its words too.
    expect(rowOf(anchored, lines(["python3 - <<'PY'\nimport pathlib\npathlib.Path('.engineering/n.md').write_text('x')\nPY", ['proc:python3']])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering/n.md'] })
    expect(rowOf(anchored, lines(["echo \"require('fs').rmSync('.engineering', {recursive: true})\" | node", ['proc:echo', 'proc:node']])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering'] })
    expect(rowOf(anchored, lines(["python3 - <<'PY'\nprint('the store is .engineering-free')\nPY", ['proc:python3']])).verdict).toBe('ok')
    // `rm` works inside the folder `cd` entered: the path it was given is relative to the store.
    expect(rowOf(storeUntouched, lines(['cd .engineering && rm notes.md', ['proc:cd', 'proc:rm', 'file:notes.md']])).outcome).toMatchObject({
      reason: 'operands_unread',
      words: ['.engineering/', '.engineering/notes.md', '.engineering/notes.md/'],
    })
    expect(rowOf(storeUntouched, lines(['echo .engineering/notes.md', ['proc:echo']], ['git rm src/old.ts', ['proc:git']])).verdict).toBe('ok')
    // A word may name a folder: `tar -C .engineering` unpacks into the store.
    expect(rowOf(storeUntouched, lines(['tar -xf notes.tar -C .engineering', ['proc:tar']])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering', '.engineering/notes.tar'] })
    // An address is no file, and a pattern is no folder.
    const git = '{tool.absent: {subject: {glob: "file:*.git/*"}}}'
    expect(rowOf(git, lines(['git clone https://github.com/x/y.git && tree -I "node_modules|.git"', ['proc:git', 'proc:tree']])).verdict).toBe('ok')
    expect(rowOf(git, lines(['git -C repo.git log', ['proc:git']])).verdict).toBe('unknown')
  })

  it('a folder rm, cp or grep works through, or a glob it is given, may hold what the selector names', () => {
    expect(rowOf(storeUntouched, lines(['rm -rf .engineering', ['proc:rm', 'file:.engineering']])).outcome).toEqual({ outcome: 'undecidable', reason: 'operands_unread', events: [1], words: ['.engineering/**'] })
    expect(rowOf(storeUntouched, lines(['rm -rf .engineering/', ['proc:rm', 'file:.engineering/']])).verdict).toBe('gap')
    expect(rowOf(storeUntouched, lines(['rm -rf build', ['proc:rm', 'file:build']])).verdict).toBe('ok')
    // A glob or an expansion names no subject, but the words it is written with may be the store's.
    expect(rowOf(storeUntouched, lines(['rm -rf .engineering/*', ['proc:rm']])).outcome).toEqual({ outcome: 'undecidable', reason: 'operands_unread', events: [1], words: ['.engineering/*', '.engineering/*/**'] })
    expect(rowOf(storeUntouched, lines(['echo x > .engineering/$NAME.md', ['proc:echo']])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering/$NAME.md'] })
    expect(rowOf(storeUntouched, lines(['rm -f *.tmp', ['proc:rm']])).verdict).toBe('ok')
    // A glob is read as the paths it may expand to: `.*` may be `.engineering`, `*` never is (bash skips a leading dot).
    expect(rowOf(storeUntouched, lines(['rm -rf .*', ['proc:rm']])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.*', '.*/**'] })
    expect(rowOf('{tool.absent: {subject: {glob: "file:.engineering/*"}}}', lines(['cat .eng*/notes.md', ['proc:cat']])).verdict).toBe('unknown')
    expect(rowOf('{tool.absent: {subject: {glob: "file:.engineering/*"}}}', lines(['rm -rf build/* *', ['proc:rm']])).verdict).toBe('ok')
    // Though `*` takes a dot inside a name: it may be `x.engineering`, which `*.engineering/*` matches too.
    expect(rowOf(storeUntouched, lines(['rm -rf build/* *', ['proc:rm']])).verdict).toBe('unknown')
  })

  it('a search or a listing works through the folder its path names, and a search or a reader through the path glob it is given', () => {
    const tool = (name: string, input: Record<string, unknown>, operations: string[], subjects: string[]): string => {
      const events: Event[] = [start(), call('c-1', name, input, { operations, subjects }), result('c-1'), ended()]
      return metaharness([...events, closed(events.length)])
    }
    expect(rowOf(storeUntouched, tool('Grep', { pattern: 'x', path: '.engineering' }, ['search'], ['file:.engineering'])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering', '.engineering/**'] })
    // A search reads every file under its folder: `.env` two folders down, and everything under the session's own folder.
    expect(rowOf('{tool.absent: {subject: {glob: "file:config/*.env"}}}', tool('Grep', { pattern: 'KEY', path: '.' }, ['search'], ['file:.'])).verdict).toBe('unknown')
    expect(rowOf('{tool.absent: {subject: {glob: "file:config/*.env"}}}', tool('Grep', { pattern: 'KEY', path: 'src' }, ['search'], ['file:src'])).verdict).toBe('ok')
    expect(rowOf(storeUntouched, tool('LS', { path: '/w/.engineering' }, ['dir.list'], ['file:/w/.engineering'])).verdict).toBe('unknown')
    expect(rowOf(storeUntouched, tool('Read', { file_path: '/w/.engineering' }, ['file.read'], ['file:/w/.engineering'])).verdict).toBe('ok')
    // A listing by pattern names no path, but its pattern is one; a search's pattern is text it looks for,
    // and given no path it searches the session's folder (Claude Code's `Grep` with `--hidden`: test/e2e/search-folders.test.ts).
    expect(rowOf(storeUntouched, tool('Glob', { pattern: '.engineering/**' }, ['dir.list'], [])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering/**'] })
    expect(rowOf(storeUntouched, tool('Grep', { pattern: '.engineering/notes' }, ['search'], [])).outcome).toMatchObject({ reason: 'operands_unread', words: ['./**'] })
    expect(rowOf(storeUntouched, tool('ToolSearch', { query: 'select:Read' }, ['search'], [])).verdict).toBe('ok')
    // `**` is any run of folders: every `.md` anywhere, the store's included.
    expect(rowOf(storeUntouched, tool('Glob', { pattern: '**/*.md' }, ['dir.list'], [])).outcome).toMatchObject({ reason: 'operands_unread', words: ['**/*.md'] })
    expect(rowOf('{tool.absent: {subject: {glob: "file:*.env"}}}', tool('Glob', { pattern: '**/*.ts' }, ['dir.list'], [])).verdict).toBe('ok')
    // The path glob a search or a reader chooses its files by: Claude Code's `Grep {glob}`, opencode's and Gemini CLI's `include`.
    expect(rowOf(storeUntouched, tool('Grep', { pattern: 'secret', glob: '.engineering/*' }, ['search'], [])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering/*'] })
    expect(rowOf(storeUntouched, tool('grep', { pattern: 'secret', include: '**/.engineering/**' }, ['search'], [])).verdict).toBe('unknown')
    expect(rowOf(storeUntouched, tool('read_many_files', { include: ['src/a.ts', '.engineering/**'] }, ['file.read'], ['file:src/a.ts'])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering/**'] })
    // A glob that names no folder matches at any depth, as ripgrep's `--glob` does: `*.ts` may be `.engineering/x.ts`, never `.env`.
    expect(rowOf(storeUntouched, tool('Grep', { pattern: 'secret', glob: '*.ts' }, ['search'], [])).outcome).toMatchObject({ reason: 'operands_unread', words: ['**/*.ts'] })
    expect(rowOf('{tool.absent: {subject: {glob: "file:*.env"}}}', tool('Grep', { pattern: 'secret', glob: '*.ts' }, ['search'], [])).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {subject: {glob: "file:.engineering/*"}}}', tool('Grep', { pattern: 'secret', glob: '*.ts', path: 'src' }, ['search'], ['file:src'])).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {subject: {glob: "file:src/generated/*"}}}', tool('Glob', { pattern: 'out.ts' }, ['dir.list'], [])).outcome).toMatchObject({ reason: 'operands_unread', words: ['**/out.ts'] })
    // A glob that leaves files out chooses none: the whole folder is searched.
    expect(rowOf(storeUntouched, tool('Grep', { pattern: 'secret', glob: '!*.md' }, ['search'], [])).outcome).toMatchObject({ reason: 'operands_unread', words: ['./**'] })
    expect(rowOf(storeUntouched, lines(["rg -g '.engineering/*' secret", ['proc:rg']])).outcome).toMatchObject({ reason: 'operands_unread', words: ['.engineering/*'] })
  })

  it('a call a reader named the file of is decided by it, and a selector that cannot see the call is unmoved', () => {
    expect(rowOf(storeUntouched, lines(['rm .engineering/notes.md', ['proc:rm', 'file:.engineering/notes.md']])).verdict).toBe('gap')
    const gitRm = lines(['git rm .engineering/notes.md', ['proc:git']])
    // `git rm` removes the file it is given: a selector by a writing operation cannot rule the shell call out.
    expect(rowOf('{tool.absent: {operations: [file.write], subject: {glob: "file:*.engineering/*"}}}', gitRm).outcome).toMatchObject({ reason: 'shell_files', files: ['.engineering/notes.md'] })
    expect(rowOf('{tool.absent: {subject: {equals: "proc:rm"}}}', gitRm).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {subject: {glob: "file:*.engineering/*"}, args: {command: {contains: "shred"}}}}', gitRm).verdict).toBe('ok')
  })

  it('a path after a `cd` is inside the folder it entered: in the same line, and in a later call of a shell that keeps its folder', () => {
    const generated = '{tool.absent: {subject: {glob: "file:src/generated/*"}}}'
    const removed = ['src/generated/out.js', 'src/generated/out.js/']
    expect(rowOf(generated, lines(['cd src && rm generated/out.js', ['proc:cd', 'proc:rm', 'file:generated/out.js']])).outcome).toMatchObject({ reason: 'operands_unread', words: removed })
    // Claude Code's `Bash` keeps the folder between calls (test/e2e/shell-folder.test.ts): the second call ran in `src/`.
    const calls = (adapter: string, tool: string, key: string, ...commands: [string, string[]][]): string => {
      const events: Event[] = [start({ adapter })]
      commands.forEach(([line, subjects], n) => events.push(call(`c-${n + 1}`, tool, { [key]: line }, { operations: ['shell'], subjects }), result(`c-${n + 1}`)))
      events.push(ended())
      return metaharness([...events, closed(events.length)])
    }
    const cdThenRm: [string, string[]][] = [
      ['cd src', ['proc:cd']],
      ['rm generated/out.js', ['proc:rm', 'file:generated/out.js']],
    ]
    expect(rowOf(generated, calls('claude', 'Bash', 'command', ...cdThenRm)).outcome).toEqual({ outcome: 'undecidable', reason: 'operands_unread', events: [3], words: removed })
    // Terminus's keystrokes go to one tmux shell too.
    expect(rowOf(generated, calls('atif', 'bash_command', 'keystrokes', ...cdThenRm)).verdict).toBe('unknown')
    // Codex starts every call where the run started: the second call removed `generated/out.js`, outside `src/`.
    expect(rowOf(generated, calls('codex', 'exec_command', 'cmd', ...cdThenRm)).verdict).toBe('ok')
    // Back where it started, the shell's paths are the run's again.
    expect(rowOf(generated, calls('claude', 'Bash', 'command', cdThenRm[0] as [string, string[]], ['cd ..', ['proc:cd']], cdThenRm[1] as [string, string[]])).verdict).toBe('ok')
    // Codex's write_stdin types into one process per session id: a shell there keeps its folder, another session's does not.
    const typed = (...chars: [number, string, string[]][]): string => {
      const events: Event[] = [start({ adapter: 'codex' })]
      chars.forEach(([session, line, subjects], n) => events.push(call(`c-${n + 1}`, 'write_stdin', { session_id: session, chars: `${line}\n` }, { operations: ['shell'], subjects }), result(`c-${n + 1}`)))
      events.push(ended())
      return metaharness([...events, closed(events.length)])
    }
    expect(rowOf(generated, typed([7, 'cd src', ['proc:cd']], [7, 'rm generated/out.js', ['proc:rm', 'file:generated/out.js']])).verdict).toBe('unknown')
    expect(rowOf(generated, typed([7, 'cd src', ['proc:cd']], [8, 'rm generated/out.js', ['proc:rm', 'file:generated/out.js']])).verdict).toBe('ok')
    // What it typed into a shell is the call's command line, as `cmd` is exec_command's; typed into a REPL (no program named), it is not.
    expect(rowOf('{tool.absent: {args: {command: {contains: "git push"}}}}', typed([7, 'git push origin main', ['proc:git']])).verdict).toBe('gap')
    expect(rowOf('{tool.called: {args: {command: {contains: "pytest"}}}}', typed([9, 'import pytest', []])).verdict).toBe('gap')
    const pushd: [string, string[]] = ['pushd src && make', ['proc:pushd', 'proc:make']]
    expect(rowOf(generated, calls('claude', 'Bash', 'command', pushd, cdThenRm[1] as [string, string[]])).verdict).toBe('unknown')
    expect(rowOf(generated, calls('claude', 'Bash', 'command', pushd, ['popd', ['proc:popd']], cdThenRm[1] as [string, string[]])).verdict).toBe('ok')
  })

  it('a shell call that wrote a file leaves a selector by a writing operation undecided, since its harness named it `shell` alone', () => {
    const writes = (...steps: [string, string, Record<string, unknown>, string[], string[]][]): string => {
      const events: Event[] = [start()]
      steps.forEach(([id, tool, input, operations, subjects]) => events.push(call(id, tool, input, { operations, subjects }), result(id)))
      events.push(ended())
      return metaharness([...events, closed(events.length)])
    }
    const testsBeforeCode = '{order: {first: {operations: [file.write, file.edit], subject: {glob: "file:*tests/*"}}, before: {operations: [file.write, file.edit], subject: {glob: "file:*src/*"}}}}'
    const heredoc: [string, string, Record<string, unknown>, string[], string[]] = ['c-1', 'Bash', { command: "cat > src/a.ts <<'EOF'\nexport {}\nEOF" }, ['shell'], ['proc:cat', 'file:src/a.ts']]
    const writeTest: [string, string, Record<string, unknown>, string[], string[]] = ['c-2', 'Write', { file_path: 'tests/a.test.ts' }, ['file.write'], ['file:tests/a.test.ts']]
    const writeCode: [string, string, Record<string, unknown>, string[], string[]] = ['c-3', 'Write', { file_path: 'src/a.ts' }, ['file.write'], ['file:src/a.ts']]
    // The code was written through the shell before the test: "tests first" cannot hold.
    expect(rowOf(testsBeforeCode, writes(heredoc, writeTest, writeCode)).outcome).toEqual({ outcome: 'undecidable', reason: 'shell_files', events: [1], files: ['src/a.ts'] })
    expect(rowOf('{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:*src/*"}}}', writes(heredoc)).verdict).toBe('unknown')
    // A floor the shell's writes may meet is not a gap.
    expect(rowOf('{tool.called: {operations: [file.write], count: {at_least: 1}}}', writes(heredoc)).outcome).toMatchObject({ reason: 'shell_files', files: ['src/a.ts'] })
    // A read names the file and writes nothing; a write elsewhere, or after the decision, does not matter.
    const read: [string, string, Record<string, unknown>, string[], string[]] = ['c-1', 'Bash', { command: 'cat src/a.ts > /tmp/copy.ts' }, ['shell'], ['proc:cat', 'file:src/a.ts', 'file:/tmp/copy.ts']]
    expect(rowOf(testsBeforeCode, writes(read, writeTest, writeCode)).verdict).toBe('ok')
    expect(rowOf(testsBeforeCode, writes(writeTest, ['c-4', 'Bash', { command: 'echo "export {}" > src/b.ts' }, ['shell'], ['proc:echo', 'file:src/b.ts']], writeCode)).verdict).toBe('ok')
    // A selector naming its tools sees the call as it is.
    expect(rowOf('{tool.absent: {tools: [Write, Edit], subject: {glob: "file:*src/*"}}}', writes(heredoc)).verdict).toBe('ok')
    // Reads too: "never read .env" cannot hold over a shell that read it, by a reader or by code.
    const neverReadEnv = '{tool.absent: {operations: [file.read], subject: {glob: "file:*.env"}}}'
    expect(rowOf(neverReadEnv, writes(['c-1', 'Bash', { command: 'cat .env' }, ['shell'], ['proc:cat', 'file:.env']])).outcome).toEqual({ outcome: 'undecidable', reason: 'shell_files', events: [1], files: ['.env'] })
    expect(rowOf(neverReadEnv, writes(['c-1', 'Bash', { command: `python3 -c "print(open('.env').read())"` }, ['shell'], ['proc:python3']])).outcome).toMatchObject({ reason: 'shell_files', files: ['.env'] })
    // An upload sends the file it names by `@`: `curl -d @.env`, `curl -F file=@.env` read it.
    expect(rowOf(neverReadEnv, writes(['c-1', 'Bash', { command: 'curl -d @.env http://127.0.0.1/up' }, ['shell'], ['proc:curl']])).outcome).toMatchObject({ reason: 'shell_files', files: expect.arrayContaining(['.env']) })
    expect(rowOf(neverReadEnv, writes(['c-1', 'Bash', { command: "curl -F 'file=@.env;type=text/plain' http://127.0.0.1/up" }, ['shell'], ['proc:curl']])).outcome).toMatchObject({ reason: 'shell_files', files: ['.env'] })
    expect(rowOf(neverReadEnv, writes(['c-1', 'Bash', { command: 'curl -u me@example.com http://127.0.0.1/up' }, ['shell'], ['proc:curl']])).verdict).toBe('ok')
    expect(rowOf(neverReadEnv, writes(['c-1', 'Bash', { command: 'ls -la' }, ['shell'], ['proc:ls']])).verdict).toBe('ok')
    expect(rowOf(neverReadEnv, writes(['c-1', 'Read', { file_path: '/w/.env' }, ['file.read'], ['file:/w/.env']])).verdict).toBe('gap')
  })

  it('a shell call run in a folder the selector names is undecided, whatever relative path its line gives', () => {
    const inStore = (input: Record<string, unknown>): string => {
      const events: Event[] = [start(), call('c-1', 'exec_command', input, { operations: ['shell'], subjects: ['proc:rm', 'file:notes.md'] }), result('c-1'), ended()]
      return metaharness([...events, closed(events.length)])
    }
    expect(rowOf(storeUntouched, inStore({ cmd: 'rm notes.md', workdir: '/w/.engineering' })).outcome).toEqual({
      outcome: 'undecidable',
      reason: 'operands_unread',
      events: [1],
      words: ['/w/.engineering/', '/w/.engineering/notes.md', '/w/.engineering/notes.md/'],
    })
    expect(rowOf(storeUntouched, inStore({ command: 'rm notes.md', dir_path: '.engineering' })).verdict).toBe('unknown')
    expect(rowOf(storeUntouched, inStore({ cmd: 'rm notes.md', workdir: '/w' })).verdict).toBe('ok')
    // The path is inside the folder: `rm generated/out.js` run in `src` removes `src/generated/out.js`.
    expect(rowOf('{tool.absent: {subject: {glob: "file:src/generated/*"}}}', inStore({ cmd: 'rm generated/out.js', workdir: 'src' })).outcome).toMatchObject({ reason: 'operands_unread', words: ['src/generated/out.js', 'src/generated/out.js/'] })
  })

  it('an MCP call is read for every string its arguments hold, since no reader knows which of them are files', () => {
    const mcp = (input: Record<string, unknown>): string => {
      const events: Event[] = [start(), call('c-1', 'mcp__filesystem__move_file', input, { operations: ['mcp.call'] }), result('c-1'), ended()]
      return metaharness([...events, closed(events.length)])
    }
    expect(rowOf(storeUntouched, mcp({ source: 'draft.md', destination: '.engineering/notes.md' })).outcome).toEqual({ outcome: 'undecidable', reason: 'operands_unread', events: [1], words: ['.engineering/notes.md'] })
    expect(rowOf(storeUntouched, mcp({ edits: [{ file: { path: '.engineering/a.md' } }] })).verdict).toBe('unknown')
    expect(rowOf(storeUntouched, mcp({ source: 'draft.md', destination: 'docs/notes.md' })).verdict).toBe('ok')
  })

  it('a count by file subject is a lower bound, and an order waits only on words before its deciding call', () => {
    const transcript = lines(['cat tests/a.test.ts', ['proc:cat', 'file:tests/a.test.ts']], ['npx vitest run tests/a.test.ts', ['proc:npx', 'proc:vitest']], ['touch src/a.ts', ['proc:touch', 'file:src/a.ts']])
    expect(rowOf('{tool.called: {subject: {glob: "file:tests/*"}, count: {exactly: 1}}}', transcript).verdict).toBe('unknown')
    // The test was named at event 1, before anything under src/: the vitest call after it cannot overturn that.
    expect(rowOf('{order: {first: {subject: {glob: "file:tests/*"}}, before: {subject: {glob: "file:src/*"}}}}', transcript).verdict).toBe('ok')
  })
})

describe('a call of a file operation that named no file', () => {
  // hermes' skill_manage patches a skill's SKILL.md and names the skill, never the file; a stream
  // may carry a write its producer resolved no subject for.
  const transcript = closedRun([
    call('c-1', 'skill_manage', { action: 'patch', name: 'memory', old_string: 'a', new_string: 'b' }, { operations: ['file.write'], subjects: [] }),
    result('c-1'),
    call('c-2', 'Read', { file_path: '/w/README.md' }, { operations: ['file.read'] }),
    result('c-2'),
  ])

  it.each([
    ['an absence by file subject', '{tool.absent: {subject: {glob: "file:*.env"}}}'],
    ['an absence by operation and file subject', '{tool.absent: {operations: [file.write], subject: {glob: "file:*SKILL.md"}}}'],
    ['a ceiling by operation and file subject', '{tool.called: {operations: [file.write, file.edit], subject: {glob: "file:*SKILL.md"}, count: {at_most: 0}}}'],
  ])('%s is unknown, naming the call and its tool, never ok', (_name, row) => {
    expect(rowOf(row, transcript).outcome).toEqual({ outcome: 'undecidable', reason: 'files_unnamed', events: [1], tools: ['skill_manage'] })
  })

  it('a selector that does not reach the call, or names no file, is decided as before', () => {
    // Reads only: the write is out of scope.
    expect(rowOf('{tool.absent: {operations: [file.read], subject: {glob: "file:*.env"}}}', transcript).verdict).toBe('ok')
    // By operation alone, the write is in scope and matches.
    expect(rowOf('{tool.absent: {operations: [file.write]}}', transcript).verdict).toBe('gap')
    // A file the run named is matched as it is.
    expect(rowOf('{tool.absent: {subject: {glob: "file:*README.md"}}}', transcript).verdict).toBe('gap')
  })

  it('a read that chose its files by a path glob named them: the glob decides', () => {
    const globbed = closedRun([call('c-1', 'read_many_files', { include: ['src/**/*.ts'] }, { operations: ['file.read'], subjects: [] }), result('c-1')])
    expect(rowOf('{tool.absent: {subject: {glob: "file:*.env"}}}', globbed).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {subject: {glob: "file:src/*"}}}', globbed).outcome).toMatchObject({ reason: 'operands_unread' })
  })
})
