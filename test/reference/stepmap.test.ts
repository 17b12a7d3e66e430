import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { checkRun, crossValidate } from '../../src/stepmap/cross-validate.js'
import { projectFlow } from '../../src/stepmap/flow.js'
import { readStepMap, readStepMapOrThrow } from '../../src/stepmap/map.js'
import { loadWorkflow } from '../../src/stepmap/workflow.js'
import { runCli } from '../helpers/cli.js'
import { referenceFile } from './paths.js'

const WORKFLOW_PATH = referenceFile('aep', 'workflows', 'default.yaml')
const workflow = loadWorkflow(WORKFLOW_PATH)
const text = (name: 'default' | 'checks'): string => readFileSync(referenceFile('aep', 'step-maps', `${name}.yaml`), 'utf8')

/** Replaces exactly one occurrence of `from` in a reference map, so a broken case breaks one thing. */
function broken(name: 'default' | 'checks', from: string, to: string): string {
  const original = text(name)
  expect(original.split(from)).toHaveLength(2)
  return original.replace(from, to)
}

function refusals(document: string): { code: string; location: string; message: string }[] {
  const reading = readStepMap(document)
  const diagnostics = reading.map ? checkRun(reading.map, workflow) : reading.diagnostics
  return diagnostics.map(({ code, location, message }) => ({ code, location, message }))
}

describe('the reference step maps against adp/default/2', () => {
  it.each(['default', 'checks'] as const)('%s.yaml validates, cross-validates and passes the run-start check under adp/1', (name) => {
    const reading = readStepMap(text(name))
    expect(reading.diagnostics).toEqual([])
    expect(reading.map?.workflow).toEqual({ id: 'adp/default', major: 2 })
    expect(crossValidate(reading.map!, workflow)).toEqual([])
    expect(checkRun(reading.map!, workflow)).toEqual([])
  })

  it('reads checks.yaml’s trace step as upstream does: trace_conformance through `record:`, after the llm step', () => {
    const map = readStepMapOrThrow(text('checks'))
    const implement = map.states['implement']?.steps ?? []
    expect(implement.map((step) => step.kind)).toEqual(['llm', 'command', 'command'])
    expect(implement[1]).toMatchObject({ kind: 'command', retries: 2, evidence: { kind: 'trace_conformance', verifier: 'trace-checker', record: '{run_directory}/trace-implement.yaml' } })
    expect(implement[1]?.kind === 'command' && implement[1].run).toContain('{transcript}')
  })

  it('`stepmap validate` accepts both', async () => {
    for (const name of ['default', 'checks']) {
      const run = await runCli(['stepmap', 'validate', '--map', referenceFile('aep', 'step-maps', `${name}.yaml`), '--workflow', WORKFLOW_PATH])
      expect(run).toMatchObject({ code: 0, stderr: '' })
    }
  })
})

describe('broken reference maps, each refused with its own code, location and reason', () => {
  const receive = 'driver-steps[development/default].states.receive'

  it('an unknown state', () => {
    expect(refusals(broken('default', '\n  specify:\n', '\n  specification:\n'))).toEqual([
      { code: 'unknown_state', location: 'driver-steps[development/default].states.specification', message: '`specification` is not a state of workflow `adp/default`' },
    ])
  })

  it('evidence on an llm step', () => {
    const document = broken('default', '        description: Read the task and record what is being asked for, unedited.\n', '        description: Read the task and record what is being asked for, unedited.\n        evidence: {kind: test_result, verifier: test-runner, suite: unit}\n')
    expect(refusals(document)).toEqual([{ code: 'unknown_field', location: `${receive}.steps[0].evidence`, message: expect.stringContaining('an `llm` step cannot carry evidence') }])
  })

  it('an unknown placeholder', () => {
    expect(refusals(broken('checks', '"{run_directory}/trace-implement.yaml"\n        evidence:', '"{run_dir}/trace-implement.yaml"\n        evidence:'))).toEqual([
      { code: 'undeclared_reference', location: 'driver-steps[development/checks].states.implement.steps[1].run', message: 'nothing in a run expands `{run_dir}`' },
    ])
  })

  it('a scope without a final `**`', () => {
    const document = broken('checks', '          - paths: [".engineering/planning/**"]\n            write: denied\n          - paths: ["**"]\n            write: allowed\n        prompt: >-\n          Read the task', '          - paths: [".engineering/planning/**"]\n            write: denied\n        prompt: >-\n          Read the task')
    expect(refusals(document)).toEqual([{ code: 'empty_declaration', location: 'driver-steps[development/checks].states.receive.steps[0].scope', message: expect.stringContaining('the last scope rule must name `**`') }])
  })

  it('a non-mintable kind without `record`', () => {
    expect(refusals(broken('checks', '          record: "{run_directory}/trace-implement.yaml"\n', ''))).toEqual([
      { code: 'unsupported_construct', location: 'driver-steps[development/checks].states.implement.steps[1].evidence.kind', message: 'a driver reads an exit status, which cannot establish `trace_conformance`' },
    ])
  })

  it('a stale workflow pin', () => {
    expect(refusals(broken('default', '\nworkflow: adp/default/2\n', '\nworkflow: adp/default/1\n'))).toEqual([
      { code: 'version_mismatch', location: 'driver-steps[development/default].workflow', message: 'the map pins `adp/default/1` and the workflow in the tree is at version 2' },
    ])
  })
})

describe('flow projection of adp/default', () => {
  it('without a map is harness/adp-default.projected.yaml, byte for byte', () => {
    expect(projectFlow(workflow)).toBe(readFileSync(referenceFile('harness', 'adp-default.projected.yaml'), 'utf8'))
  })

  it('with a map carries each step’s fields in the map’s order and is still a flow document', () => {
    const document = projectFlow(workflow, readStepMapOrThrow(text('default')))
    expect(document).toContain('# Steps from step map `development/default`, which is pinned to `adp/default/2`.\n')
    const flow = parse(document) as { id: string; root: { nodes: { id: string; nodes: { id: string; run: Record<string, unknown> }[] }[] } }
    expect(flow.id).toBe('adp/default')
    const receive = flow.root.nodes[0]?.nodes[0]?.run
    expect(Object.keys(receive ?? {})).toEqual(['state', 'summary', 'kind', 'prompt', 'context', 'scope', 'harness', 'description'])
    expect(receive?.['scope']).toEqual(['.engineering/planning/**=denied', 'crates/**=allowed', 'docs/**=allowed', 'conformance/**=allowed', 'drivers/**=allowed', '**=denied'])
    const establish = flow.root.nodes.find((node) => node.id === 'establish_verifiers')
    expect(establish?.nodes.map((node) => node.run['kind'])).toEqual(['llm', 'command', 'operator'])
    expect(establish?.nodes[1]?.run).toMatchObject({ command: ['cargo', 'test', '--workspace'], evidence: { kind: 'test_result', verifier: 'test-runner', suite: 'unit' } })
  })
})
