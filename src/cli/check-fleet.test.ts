import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { call, closed, ended, metaharness, result, start } from '../../test/helpers/trace.js'
import { traceReportSchema } from '../trace/report-schema.js'

let dir = ''

const SPEC = `format: trace-spec/1
id: cli/fleet
expectations:
  - id: ran-the-suite
    expect: {tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}}
  - id: no-edit
    expect: {tool.absent: {tool: Edit}}
`
const WILD_ROLLOUT = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'wild', 'codex-rollout')

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-fleet-'))
  writeFileSync(join(dir, 'spec.yaml'), SPEC)
  mkdirSync(join(dir, 'runs', 'a'), { recursive: true })
  mkdirSync(join(dir, 'runs', 'b'), { recursive: true })
  writeFileSync(join(dir, 'runs', 'a', 'ok.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), result('c-1'), ended(), closed(4)]))
  writeFileSync(join(dir, 'runs', 'b', 'gap.jsonl'), metaharness([start(), call('c-1', 'Edit', { file_path: 'a' }), ended(), closed(3)]))
  writeFileSync(join(dir, 'runs', 'b', 'open.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), ended()]))
  writeFileSync(join(dir, 'runs', 'notes.txt'), 'not a transcript')
  mkdirSync(join(dir, 'bad'))
  writeFileSync(join(dir, 'bad', 'bad.jsonl'), `${metaharness([start()])}not json\n`)
  // A converted format beside the native ones: the fleet reads every format `check` reads.
  mkdirSync(join(dir, 'codex'))
  cpSync(join(WILD_ROLLOUT, 'agentlogs_crud-0.89.0.jsonl'), join(dir, 'codex', 'rollout.jsonl'))
})

const fleet = (...argv: string[]) => runCli(['check', '--spec', 'spec.yaml', ...argv], { cwd: dir })

describe('check --spec S <dir|glob>…: a fleet on worker threads', () => {
  it('checks each transcript a glob names, prints each report and a summary table, and exits with the worst verdict', async () => {
    const run = await fleet('runs/**/*.jsonl', '--jobs', '2')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('== runs/a/ok.jsonl\n')
    expect(run.stdout).toContain('== runs/b/gap.jsonl\n')
    const table = run.stdout.slice(run.stdout.indexOf('verdict  '))
    expect(table).toMatchInlineSnapshot(`
      "verdict  ok  gap  unknown  transcript
      ok        2    0        0  runs/a/ok.jsonl
      gap       0    2        0  runs/b/gap.jsonl
      unknown   1    0        1  runs/b/open.jsonl
      3 transcript(s): 1 ok, 1 gap, 1 unknown, 0 refused
      "
    `)
  })

  it('reads a final ** as every transcript file below, as the folder itself names them, never a folder as one transcript', async () => {
    const everything = await fleet('runs/**', '--jobs', '2')
    const table = (run: { stdout: string }) => run.stdout.slice(run.stdout.indexOf('verdict  '))
    expect(table(everything)).toBe(table(await fleet('runs/**/*.jsonl')))
    expect(table(everything)).toBe(table(await fleet('runs')))
    expect(table(everything)).toContain('3 transcript(s)')
    // A glob's last segment that matches folders still names each folder as one (Reef) transcript.
    expect(table(await fleet('runs/[ab]'))).toMatch(/ runs\/a\n.* runs\/b\n2 transcript\(s\)/s)
  })

  it('gives the same report for each transcript as check --transcript does', async () => {
    const out = join(dir, 'fleet.jsonl')
    const run = await fleet('runs', 'codex', '--out', out, '--jobs', '3')
    expect(run.code).toBe(1)
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(4)
    const labels = ['codex/rollout.jsonl', 'runs/a/ok.jsonl', 'runs/b/gap.jsonl', 'runs/b/open.jsonl']
    for (const [index, line] of lines.entries()) {
      const report = traceReportSchema.parse(JSON.parse(line))
      const single = await runCli(['check', '--spec', 'spec.yaml', '--transcript', labels[index] as string, '--format', 'json'], { cwd: dir })
      expect(report, labels[index]).toEqual(JSON.parse(single.stdout))
    }
    expect(JSON.parse(lines[0] as string).adapter.name).toBe('codex/rollout-jsonl via metaharness/event-stream')
  })

  it('reports a refused transcript without stopping the fleet; a refusal is the worst exit', async () => {
    const run = await fleet('runs/a/ok.jsonl', 'bad/*.jsonl', '--format', 'json')
    // Not JSON is upstream's trace refusal, which exits 1 as `check --transcript` does.
    expect(run.code).toBe(1)
    // Worded as check --transcript words it, the transcript named once.
    expect(run.stderr).toMatch(/^error: bad\/bad.jsonl is not a transcript this build can read as /m)
    expect(run.stderr).not.toContain('bad/bad.jsonl: bad/bad.jsonl')
    expect(run.stderr).toContain('1 ok, 0 gap, 0 unknown, 1 refused')
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1)
  })

  it('refuses a glob that names nothing, and --transcript beside a fleet', async () => {
    const none = await fleet('runs/*.none')
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('VH_FLEET_EMPTY')
    const both = await fleet('--transcript', 'runs/a/ok.jsonl', 'runs')
    expect(both.code).toBe(2)
    const jobs = await fleet('runs', '--jobs', '0')
    expect(jobs.code).toBe(2)
  })
})
