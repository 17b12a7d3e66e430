import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { call, closed, ended, metaharness, result, start, text } from '../../test/helpers/trace.js'
import { openTranscriptPath } from '../trace/ir/any-format.js'
import { diffRuns } from './diff.js'
import { readRunShape, type RunShape } from './run-shape.js'

const CODEX = join(import.meta.dirname, '../../test/e2e/fixtures/codex')
let dir = ''

function shapeOf(path: string): Promise<RunShape> {
  const opened = openTranscriptPath(path)
  return readRunShape(opened.bytes, { source: path, ...opened.read })
}

/** The recorded rollout without its one tool call: the function_call and its output removed. */
function withoutTheCall(rollout: string): string {
  const lines = rollout.split('\n')
  const kept = lines.filter((line) => !/"type":"function_call(_output)?"/.test(line))
  expect(lines.length - kept.length).toBe(2)
  return kept.join('\n')
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-diff-'))
  writeFileSync(join(dir, 'rollout-without-call.jsonl'), withoutTheCall(readFileSync(join(CODEX, 'rollout.jsonl'), 'utf8')))
  const run = (calls: Record<string, unknown>[][]) => metaharness([start(), ...calls.flat(), text('done'), ended(), closed(3 + calls.length * 2)])
  const read = [call('c-1', 'Read', { file_path: 'a.ts' }), result('c-1', { content: 'one\ntwo' })]
  const test = [call('c-2', 'Bash', { command: 'npm test' }), result('c-2', { content: 'passed' })]
  const write = [call('c-3', 'Write', { file_path: 'a.ts', content: 'x' }), result('c-3')]
  writeFileSync(join(dir, 'base.jsonl'), run([read, test]))
  writeFileSync(join(dir, 'inserted.jsonl'), run([read, write, test]))
  writeFileSync(join(dir, 'changed.jsonl'), run([read, [call('c-2', 'Bash', { command: 'npm run test' }), result('c-2', { content: 'passed' })]]))
  writeFileSync(join(dir, 'result.jsonl'), run([[call('c-1', 'Read', { file_path: 'a.ts' }), result('c-1', { content: 'one\nTWO' })], test]))
  writeFileSync(join(dir, 'spec.yaml'), 'format: trace-spec/1\nid: unit/diff\nexpectations:\n  - id: no-write\n    expect: {tool.absent: {tool: Write}}\n')
})

describe('diffRuns on real recorded runs', () => {
  it.each(['rollout.jsonl', 'exec.jsonl'])('finds a Codex run (%s) the same as itself', async (name) => {
    const run = await shapeOf(join(CODEX, name))
    expect(run.calls.length).toBeGreaterThan(0)
    const diff = diffRuns(run, await shapeOf(join(CODEX, name)))
    expect(diff.differences).toBe(0)
    expect(diff.calls.every((entry) => entry.kind === 'same')).toBe(true)
  })

  it('reports a recorded run against itself with one tool call removed as exactly that call removed', async () => {
    const diff = diffRuns(await shapeOf(join(CODEX, 'rollout.jsonl')), await shapeOf(join(dir, 'rollout-without-call.jsonl')))
    expect(diff.differences).toBe(1)
    expect(diff.calls).toHaveLength(1)
    expect(diff.calls[0]).toMatchObject({ kind: 'removed', a: { name: 'exec_command', input: { cmd: 'cat README.md' } } })
    expect(diff.texts).toEqual([])
    expect(diff.usage).toEqual([])
  })
})

describe('the diff guide', () => {
  it('prints what its sample shows, for the run it names', async () => {
    const guide = readFileSync(join(import.meta.dirname, '../../docs/guide/report-diff.md'), 'utf8')
    const sample = /```console\n\$ npx vitest-harness (diff recorded\.jsonl without-the-call\.jsonl)\n([^`]*)```/.exec(guide)
    expect(sample, 'the guide has its diff sample').not.toBeNull()
    copyFileSync(join(CODEX, 'rollout.jsonl'), join(dir, 'recorded.jsonl'))
    copyFileSync(join(dir, 'rollout-without-call.jsonl'), join(dir, 'without-the-call.jsonl'))
    const run = await runCli((sample?.[1] as string).split(' '), { cwd: dir })
    expect(run).toMatchObject({ code: 1, stdout: sample?.[2] })
    // The lines its prose quotes, from the runs of this file that differ so.
    const changed = /a\s+changed argument reads `([^`]+)` then `([^`]+)`/.exec(guide)
    const moved = /a verdict that moved reads `([^`]+)`/.exec(guide)
    expect((await runCli(['diff', 'base.jsonl', 'changed.jsonl'], { cwd: dir })).stdout).toContain(`  ${changed?.[1]}\n      ${changed?.[2]}\n`)
    expect((await runCli(['diff', 'base.jsonl', 'inserted.jsonl', '--spec', 'spec.yaml'], { cwd: dir })).stdout).toContain(`${moved?.[1]}\n`)
  })
})

describe('diffRuns alignment', () => {
  it('reads a call inserted in the middle as one added call, the calls after it as the same', async () => {
    const diff = diffRuns(await shapeOf(join(dir, 'base.jsonl')), await shapeOf(join(dir, 'inserted.jsonl')))
    expect(diff.calls.map((entry) => entry.kind)).toEqual(['same', 'added', 'same'])
    expect(diff.differences).toBe(1)
  })

  it('names a changed argument by its JSON path with both values', async () => {
    const diff = diffRuns(await shapeOf(join(dir, 'base.jsonl')), await shapeOf(join(dir, 'changed.jsonl')))
    expect(diff.calls.map((entry) => entry.kind)).toEqual(['same', 'changed'])
    expect(diff.calls[1]).toMatchObject({ kind: 'changed', arguments: [{ kind: 'changed', path: '$.command', expected: 'npm test', actual: 'npm run test' }], result: null })
  })

  it('reports a changed result of the same call with the first line that differs', async () => {
    const diff = diffRuns(await shapeOf(join(dir, 'base.jsonl')), await shapeOf(join(dir, 'result.jsonl')))
    expect(diff.calls[0]).toMatchObject({ kind: 'changed', arguments: [], result: { firstLine: { line: 2, before: 'two', after: 'TWO' } } })
  })
})

describe('vitest-harness diff', () => {
  it('exits 0 and says same for a run against itself', async () => {
    const run = await runCli(['diff', join(CODEX, 'rollout.jsonl'), join(CODEX, 'rollout.jsonl')])
    expect(run.code).toBe(0)
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('same: the runs match call for call, in text and in usage')
  })

  it('exits 1 and prints exactly the difference, and with --spec the verdict that changed', async () => {
    const run = await runCli(['diff', 'base.jsonl', 'inserted.jsonl', '--spec', 'spec.yaml', '--html', 'out/diff.html'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('tool calls: 2 same, 0 changed, 0 removed, 1 added\n  + added    B#3 Write {"content":"x","file_path":"a.ts"}\n')
    expect(run.stdout).toContain('verdict: no-write ok → gap\n')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('different: 2 difference(s)')
    const html = readFileSync(join(dir, 'out/diff.html'), 'utf8')
    expect(html).toContain('"kind":"added"')
  })

  it('refuses anything but two transcripts with exit 2', async () => {
    const run = await runCli(['diff', 'base.jsonl'], { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('diff takes two transcripts')
  })
})
