import { stringify } from 'yaml'
import { describe, expect, it } from 'vitest'
import { kindExamples } from '../../scripts/trace-spec-kind-docs.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { runOneCall } from './harness-run.js'
import { HARNESS_SHELLS, installedPrograms, shellArguments } from './harness-shells.js'

// The kind pages' examples about shell results (Bash's, or any shell call's), pasted as they are over what the real Claude
// Code wrote for one Bash call that succeeded: each must decide. The tool.result example once
// read `exit_code`, a field Claude Code's Bash result never carries, so it was unknown on every run.
const CLAUDE = HARNESS_SHELLS.filter((shell) => shell.launch.adapter === 'claude')
const BASH_RESULT_KINDS = ['tool.result', 'tool.failed', 'tool.error_rate'] as const

const examples = kindExamples().filter((example) => (BASH_RESULT_KINDS as readonly string[]).includes(example.kind))
const SPEC = readSpec(stringify({ format: 'trace-spec/1', id: 'e2e/kind-examples', expectations: examples.map((example) => ({ id: example.kind.replace(/[^a-z]/g, '-'), expect: example.expect })) }))

const programs = installedPrograms(CLAUDE)

describe('the kind pages’ examples about shell results decide over a real Claude Code run', () => {
  it('the pages hold an example of each', () => {
    expect(examples.map((example) => example.kind).sort()).toEqual([...BASH_RESULT_KINDS].sort())
  })

  it.each(CLAUDE.map((shell) => [shell.launch.adapter, shell] as const))('%s: every example is ok over its stream-json', async (name, shell) => {
    const args = shellArguments(shell.key, 'echo ok', 'print ok')
    const ran = await runOneCall({ suite: 'kind-examples', name, launch: shell.launch, program: programs.get(name) as string, wire: shell.wire, tool: shell.tool, args, prompt: 'Run the command.' })
    const report = await checkTranscriptFile(SPEC, ran.stdout)
    expect(Object.fromEntries(report.expectations.map((row) => [row.id, row.verdict]))).toEqual({ 'tool-result': 'ok', 'tool-failed': 'ok', 'tool-error-rate': 'ok' })
  })
})
