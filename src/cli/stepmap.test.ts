import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { tree } from '../../test/helpers/tree.js'

const WORKFLOW = `id: demo/flow
version: 2
title: t
initial: build
states:
  build: {title: Build, summary: Build it.}
  check: {title: Check, summary: Check it.}
  done: {title: Done, terminal: true}
transitions:
  - {from: build, to: check}
  - {from: check, to: build, when: tests.unit.failed > 0}
  - {from: check, to: done, when: tests.unit.failed == 0}
`
const MAP = (pin: string, extra = ''): string => `format: aep.driver-steps/1
id: demo/map
workflow: ${pin}
states:
  check:
    steps:
      - {kind: command, run: [npm, test], evidence: {kind: test_result, verifier: test-runner, suite: unit}}
${extra}`

const root = tree({
  'workflow.yaml': WORKFLOW,
  'good.yaml': MAP('demo/flow/2'),
  'stale.yaml': MAP('demo/flow/1', '  polish: {steps: []}\n'),
  'traced.yaml': MAP('demo/flow/2', '  build:\n    steps:\n      - {kind: llm, prompt: go}\n      - {kind: command, run: [x, "{transcript}"], evidence: {kind: trace_conformance, verifier: trace-checker, record: "{run_directory}/t.yaml"}}\n'),
  'not-yaml.yaml': 'states: [\n',
  'bad-workflow.yaml': 'id: demo/flow\n',
})

describe('vitest-harness stepmap validate', () => {
  it('exits 0 and says so for a valid map', async () => {
    const run = await runCli(['stepmap', 'validate', '--map', 'good.yaml', '--workflow', 'workflow.yaml'], { cwd: root })
    expect(run).toEqual({ code: 0, stdout: 'good.yaml: demo/map is valid against demo/flow/2 — 1 state(s), 1 step(s)\n', stderr: '' })
  })

  it('exits 1 with one `CODE at location: message` line per refusal on stderr', async () => {
    const run = await runCli(['stepmap', 'validate', '--map', 'stale.yaml', '--workflow', 'workflow.yaml'], { cwd: root })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'error: VH_STEPMAP at stale.yaml: the step map is refused — 2 refusal(s):',
      'version_mismatch at driver-steps[demo/map].workflow: the map pins `demo/flow/1` and the workflow in the tree is at version 2 (hint: a major version exists because the change could not be expressed additively, so the map is rewritten against the new state graph rather than migrated)',
      'unknown_state at driver-steps[demo/map].states.polish: `polish` is not a state of workflow `demo/flow` (hint: the workflow declares: build, check, done)',
    ])
  })

  it('applies the run-start check to the protocol named', async () => {
    expect((await runCli(['stepmap', 'validate', '--map', 'traced.yaml', '--workflow', 'workflow.yaml'], { cwd: root })).code).toBe(0)
    const run = await runCli(['stepmap', 'validate', '--map', 'traced.yaml', '--workflow', 'workflow.yaml', '--protocol', 'aep/1', '--evidence-kind', 'test_result'], { cwd: root })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^error: VH_STEPMAP at traced\.yaml: the step map is refused — 1 refusal\(s\):\nundeclared_evidence_kind at driver-steps\[demo\/map\]\.states\.build\.steps\[1\]\.evidence\.kind: protocol `aep\/1` does not declare `trace_conformance`/)
  })

  it('refuses a map that is not YAML with exit 1, and exits 2 for what it cannot read or use', async () => {
    const notYaml = await runCli(['stepmap', 'validate', '--map', 'not-yaml.yaml', '--workflow', 'workflow.yaml'], { cwd: root })
    expect(notYaml.code).toBe(1)
    expect(notYaml.stderr).toMatch(/^error: VH_STEPMAP at not-yaml\.yaml: the step map is refused — 1 refusal\(s\):\nnot_yaml at not-yaml\.yaml:\d+:\d+: /)
    const missing = await runCli(['stepmap', 'validate', '--map', 'absent.yaml', '--workflow', 'workflow.yaml'], { cwd: root })
    expect(missing).toMatchObject({ code: 2, stderr: 'error: VH_INPUT_MISSING at absent.yaml: cannot read the step map: no such file\n' })
    const badWorkflow = await runCli(['stepmap', 'validate', '--map', 'good.yaml', '--workflow', 'bad-workflow.yaml'], { cwd: root })
    expect(badWorkflow.code).toBe(2)
    expect(badWorkflow.stderr).toContain('error: VH_STEPMAP: bad-workflow.yaml is not a workflow — ')
    expect(badWorkflow.stderr).toContain('missing_field at workflow.version: missing field `version`')
    expect((await runCli(['stepmap', 'validate', '--workflow', 'workflow.yaml'], { cwd: root })).code).toBe(2)
    expect((await runCli(['stepmap'], { cwd: root })).code).toBe(2)
  })
})

describe('vitest-harness stepmap flow', () => {
  it('writes the projection, with the map’s steps when given one', async () => {
    const run = await runCli(['stepmap', 'flow', '--workflow', 'workflow.yaml', '--map', 'good.yaml', '--max-attempts', '5', '--out', 'flow.yaml'], { cwd: root })
    expect(run).toMatchObject({ code: 0, stdout: 'flow.yaml\n' })
    const flow = readFileSync(join(root, 'flow.yaml'), 'utf8')
    expect(flow).toContain('# the retreat: check -> build\n    - id: build-to-check\n      repeat: {max: 5}\n')
    expect(flow).toContain('command: ["npm", "test"]')
  })

  it('refuses a map that does not apply, with exit 1', async () => {
    const run = await runCli(['stepmap', 'flow', '--workflow', 'workflow.yaml', '--map', 'stale.yaml'], { cwd: root })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('version_mismatch at driver-steps[demo/map].workflow')
  })
})
