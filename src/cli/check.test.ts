import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { call, closed, ended, metaharness, result, start } from '../../test/helpers/trace.js'

let dir = ''

const SPEC = `format: trace-spec/1
id: cli/check
expectations:
  - id: ran-the-suite
    expect: {tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}}
  - id: no-edit
    expect: {tool.absent: {tool: Edit}}
`

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-check-'))
  writeFileSync(join(dir, 'spec.yaml'), SPEC)
  writeFileSync(join(dir, 'ok.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), result('c-1'), ended(), closed(4)]))
  writeFileSync(join(dir, 'gap.jsonl'), metaharness([start(), call('c-1', 'Edit', { file_path: 'a' }), ended(), closed(3)]))
  writeFileSync(join(dir, 'open.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), ended()]))
  writeFileSync(join(dir, 'bad-spec.yaml'), SPEC.replace('id: no-edit', 'id: No Edit').replace('format: trace-spec/1', 'format: trace-spec/9'))
  writeFileSync(join(dir, 'bad.jsonl'), `${metaharness([start()])}not json\n`)
})

const check = (...argv: string[]) => runCli(['check', '--spec', 'spec.yaml', ...argv], { cwd: dir })

describe('vitest-harness check', () => {
  it('exits 0 when every gating expectation holds, printing the report and the verdict sentence', async () => {
    const run = await check('--transcript', 'ok.jsonl')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('cli/check against transcript sha256:')
    expect(run.stdout).toContain('  ok        ran-the-suite  Bash(command ~ "npm test") called 1 time(s), at least 1 at event 1')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('conformant: the run satisfies every expectation the specification states (exit 0)')
    expect(run.stderr).toBe('')
  })

  it('exits 1 on a gating gap and 3 on a gating unknown', async () => {
    expect((await check('--transcript', 'gap.jsonl')).code).toBe(1)
    const open = await check('--transcript', 'open.jsonl')
    expect(open.code).toBe(3)
    expect(open.stdout).toContain('unk       no-edit')
  })

  it('prints trace-report/1 as two-space JSON with --format json, and redacts notes with --redact', async () => {
    const run = await check('--transcript', 'ok.jsonl', '--format', 'json', '--redact')
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as { format: string; redacted: boolean; expectations: { outcome: { note: string } }[] }
    expect(run.stdout).toBe(`${JSON.stringify(report, null, 2)}\n`)
    expect(report.format).toBe('trace-report/1')
    expect(report.redacted).toBe(true)
    expect(report.expectations[0]?.outcome.note).toMatch(/^sha256:[0-9a-f]{12}$/)
    expect(run.stdout).not.toContain('npm test')
  })

  it('downgrades with --advisory, and refuses an id the spec does not declare with exit 1, as upstream does', async () => {
    const downgraded = await check('--transcript', 'gap.jsonl', '--advisory', 'no-edit', '--advisory', 'ran-the-suite')
    expect(downgraded.code).toBe(0)
    expect(downgraded.stdout).toContain('gap (adv) no-edit')
    const refused = await check('--transcript', 'gap.jsonl', '--advisory', 'no-such')
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toBe('error: --advisory names 1 expectation(s) `cli/check` does not declare: no-such. A downgrade that matched nothing would relax nothing while looking as though it had\n')
  })

  it('exits 1 (upstream: an unreadable spec) with every refusal line on stderr for a specification that is not one', async () => {
    const run = await runCli(['check', '--spec', 'bad-spec.yaml', '--transcript', 'ok.jsonl'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'error: bad-spec.yaml is not a trace-spec/1 specification — 2 refusal(s):\n' +
        'TRACE-SPEC-001 at format: this build reads `trace-spec/1`, and the document is written in `trace-spec/9`\n' +
        'TRACE-SPEC-006 at expectations[1].id: `No Edit` is not an expectation id: lowercase letters, digits and dashes\n',
    )
  })

  it('exits 1 (upstream: an unreadable transcript) with the line refused for a transcript that is not one', async () => {
    const run = await check('--transcript', 'bad.jsonl')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^error: bad.jsonl is not a transcript this build can read as metaharness.event\/1 — 1 refusal\(s\):\nTRACE-ADAPT-001 at line\[2\]: line 2 is not JSON/)
  })

  it('reads the transcript from stdin with -', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', '-'], { cwd: dir, stdin: metaharness([start(), call('c-1', 'Bash', { command: 'npm test' }), ended(), closed(3)]) })
    expect(run.code).toBe(0)
  })

  it('is a usage error (exit 2) without --spec or --transcript, or with a missing file', async () => {
    expect(await runCli(['check', '--transcript', 'ok.jsonl'], { cwd: dir })).toMatchObject({ code: 2, stderr: 'error: VH_USAGE: --spec is required\n' })
    expect(await check()).toMatchObject({ code: 2, stderr: 'error: VH_USAGE: name what to check: --transcript FILE|DIR|-, or a fleet of FILE|DIR|GLOB arguments\n' })
    expect(await check('--transcript', 'nope.jsonl')).toMatchObject({ code: 2, stderr: 'error: VH_TRANSCRIPT_MISSING at nope.jsonl: cannot read the transcript: no such file or directory\n' })
  })
})

describe('vitest-harness inspect', () => {
  it('prints the census and exits 0 whatever it says', async () => {
    const run = await runCli(['inspect', '--transcript', 'gap.jsonl'], { cwd: dir })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('events       3 total — 1 run_outcome, 1 session_start, 1 tool_call')
    expect(run.stdout).toContain('tool         Edit: 1 call(s), 0 error(s), in 17B, results 0B')
    expect(run.stdout).toContain('adapter      metaharness/event-stream (written against metaharness.event/1)')
    expect(run.stdout).toContain('closure      closed by stream.closed (completed)')
  })

  it('prints the census as JSON with --format json', async () => {
    const run = await runCli(['inspect', '--transcript', 'open.jsonl', '--format', 'json'], { cwd: dir })
    const census = JSON.parse(run.stdout) as Record<string, unknown>
    expect(census).toMatchObject({ events: 3, events_by_family: { run_outcome: 1, session_start: 1, tool_call: 1 }, closure: null, closure_markers: ['stream.closed', 'hermetic.stream_complete'] })
  })

  it('exits 2 for a transcript that is not one', async () => {
    expect((await runCli(['inspect', '--transcript', 'bad.jsonl'], { cwd: dir })).code).toBe(2)
  })

  it('takes the transcript as its one argument, as convert does', async () => {
    const named = await runCli(['inspect', 'gap.jsonl'], { cwd: dir })
    expect(named).toMatchObject({ code: 0, stdout: (await runCli(['inspect', '--transcript', 'gap.jsonl'], { cwd: dir })).stdout })
    expect(named.stdout).toContain('events       3 total')
    expect(await runCli(['inspect'], { cwd: dir })).toMatchObject({ code: 2, stderr: 'error: VH_USAGE: name the transcript to inspect: --transcript FILE|DIR|-, or FILE|DIR|- as an argument\n' })
    expect(await runCli(['inspect', 'gap.jsonl', 'open.jsonl'], { cwd: dir })).toMatchObject({ code: 2, stderr: 'error: VH_USAGE: inspect reads one transcript; got 2\n' })
    expect((await runCli(['inspect', '--transcript', 'gap.jsonl', 'open.jsonl'], { cwd: dir })).stderr).toMatch(/not both; got "open.jsonl"/)
  })
})
