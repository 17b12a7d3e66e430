import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TraceReport } from '../../src/trace/report-types.js'
import { describeRow } from '../../src/vitest/trace-failure.js'
import { runCli } from '../helpers/cli.js'
import { call, closed, ended, metaharness, result, start } from '../helpers/trace.js'

// A transcript is the agent's (or an attacker's) words: a tool name that retitles the terminal, a
// command that clears it, a carriage return that overwrites the line and a bidi override that
// reorders it. Text reports print them as escapes; JSON reports keep JSON's own spelling.
const TITLE = '\x1b]0;pwned\x07'
const CLEAR = '\x1b[2J'
const EVIL_TOOL = `Bash${TITLE}${CLEAR}\r\u202elive`
const EVIL_COMMAND = `npm test${CLEAR}\rall good \u202eevil`
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/

let dir = ''

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-terminal-'))
  writeFileSync(
    join(dir, 'spec.yaml'),
    `format: trace-spec/1
id: cli/terminal
expectations:
  - id: ran-the-suite
    expect: {tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}}
  - id: no-evil
    expect: {tool.absent: {tool: ${JSON.stringify(EVIL_TOOL)}}}
`,
  )
  writeFileSync(join(dir, 'evil.jsonl'), metaharness([start(), call('c-1', 'Bash', { command: EVIL_COMMAND }), result('c-1'), call('c-2', EVIL_TOOL, { command: EVIL_COMMAND }), result('c-2'), ended(), closed(6)]))
})

describe('text reports escape what a terminal would obey', () => {
  it('check prints the tool name and the command as escapes, and keeps the verdict’s exit code', async () => {
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'evil.jsonl'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stdout).not.toMatch(RAW)
    expect(run.stdout).toContain('1 call(s) match Bash\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\u202elive at event 3')
  })

  it('inspect prints the tool name as an escape', async () => {
    const run = await runCli(['inspect', '--transcript', 'evil.jsonl'], { cwd: dir })
    expect(run.code).toBe(0)
    expect(run.stdout).not.toMatch(RAW)
    expect(run.stdout).toContain('tool         Bash\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\u202elive: 1 call(s)')
  })

  it('leaves JSON output as JSON spells it', async () => {
    const checked = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'evil.jsonl', '--format', 'json'], { cwd: dir })
    expect(JSON.stringify(JSON.parse(checked.stdout), null, 2)).toBe(checked.stdout.trimEnd())
    // JSON's own spelling: C0 controls as \u001b and \r, U+202E as itself.
    expect(checked.stdout).toContain(JSON.stringify(EVIL_TOOL).slice(1, -1))
    const census = JSON.parse((await runCli(['inspect', '--transcript', 'evil.jsonl', '--format', 'json'], { cwd: dir })).stdout) as { tool_traffic: Record<string, unknown> }
    expect(Object.keys(census.tool_traffic)).toContain(EVIL_TOOL)
  })

  it('escapes the failure message a gapped trace test prints', async () => {
    const report = JSON.parse((await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'evil.jsonl', '--format', 'json'], { cwd: dir })).stdout) as TraceReport
    const message = describeRow(report.expectations.find((row) => row.id === 'no-evil') as TraceReport['expectations'][number])
    expect(message).not.toMatch(RAW)
    expect(message).toContain('Bash\\x1b]0;pwned\\x07')
  })

  it('escapes a refusal that quotes the transcript', async () => {
    writeFileSync(join(dir, 'broken.jsonl'), `${metaharness([start()])}{"format":"metaharness.event/1","seq":2,"run":"T/1","event":"tool.requested${TITLE}"}\n`)
    const run = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'broken.jsonl'], { cwd: dir })
    // A transcript refusal exits 1, as upstream's `trace check` does.
    expect(run.code).toBe(1)
    expect(run.stderr).not.toMatch(RAW)
  })
})
