import { describe, expect, it } from 'vitest'
import { AEP_1_EVIDENCE_KINDS } from '../evidence/declared-kinds.js'
import { checkRun, crossValidate } from './cross-validate.js'
import { readStepMapOrThrow } from './map.js'
import { readWorkflowOrThrow } from './workflow.js'

const WORKFLOW = readWorkflowOrThrow(`id: adp/default
version: 1
title: t
initial: implement
states:
  implement: {title: Implement, summary: Make the change.}
  verify: {title: Verify}
  done: {title: Done, terminal: true}
transitions:
  - {from: implement, to: verify}
  - {from: verify, to: implement, when: tests.unit.failed > 0}
  - {from: verify, to: done, when: tests.unit.failed == 0}
`)

function map(states: string, workflow = 'adp/default/1'): ReturnType<typeof readStepMapOrThrow> {
  return readStepMapOrThrow(`format: aep.driver-steps/1\nid: development/default\nworkflow: ${workflow}\nstates:\n${states}`)
}

describe('crossValidate: the map against the workflow it names', () => {
  it('has nothing to say about a map that fits', () => {
    expect(crossValidate(map('  implement:\n    steps:\n      - {kind: command, run: [cargo, test], evidence: {kind: test_result, verifier: test-runner, suite: unit}}\n'), WORKFLOW)).toEqual([])
  })

  it('refuses a stale pin and a renamed state, both, with the workflow’s states as the hint', () => {
    const diagnostics = crossValidate(map('  implement: {steps: []}\n  polish: {steps: []}\n', 'adp/default/2'), WORKFLOW)
    expect(diagnostics).toEqual([
      { code: 'version_mismatch', location: 'driver-steps[development/default].workflow', message: 'the map pins `adp/default/2` and the workflow in the tree is at version 1', hint: expect.stringContaining('rewritten against the new state graph') },
      { code: 'unknown_state', location: 'driver-steps[development/default].states.polish', message: '`polish` is not a state of workflow `adp/default`', hint: 'the workflow declares: implement, verify, done' },
    ])
  })

  it('refuses a map written against another workflow', () => {
    expect(crossValidate(map('  implement: {steps: []}\n', 'adp/release/1'), WORKFLOW)).toEqual([
      { code: 'unknown_workflow', location: 'driver-steps[development/default].workflow', message: 'the map is written against `adp/release/1` and was checked against `adp/default`' },
    ])
  })

  it('refuses a named verifier that cannot produce the kind, and exempts an external tool', () => {
    const diagnostics = crossValidate(
      map(`  implement:
    steps:
      - {kind: command, run: [x], evidence: {kind: contract_result, verifier: test-runner}}
      - {kind: command, run: [git, diff], evidence: {kind: diff, verifier: git}}
      - {kind: command, run: [ruff], evidence: {kind: static_analysis, verifier: ruff}}
`),
      WORKFLOW,
    )
    expect(diagnostics).toEqual([
      { code: 'no_verifier_for_evidence', location: 'driver-steps[development/default].states.implement.steps[0].evidence', message: 'a `test-runner` does not establish `contract_result`', hint: '`test-runner` establishes: test_result, specification' },
    ])
  })
})

describe('checkRun: the kinds the protocol in force declares', () => {
  const traced = map(`  implement:
    steps:
      - {kind: llm, prompt: go}
      - {kind: command, run: [x, "{transcript}"], evidence: {kind: trace_conformance, verifier: trace-checker, record: "{run_directory}/t.yaml"}}
`)

  it('admits trace_conformance under adp/1, the default', () => {
    expect(checkRun(traced, WORKFLOW)).toEqual([])
  })

  it('refuses it under aep/1, naming the protocol and what it does declare', () => {
    const [only, ...rest] = checkRun(traced, WORKFLOW, { reference: 'aep/1', evidenceKinds: AEP_1_EVIDENCE_KINDS })
    expect(rest).toEqual([])
    expect(only).toEqual({
      code: 'undeclared_evidence_kind',
      location: 'driver-steps[development/default].states.implement.steps[1].evidence.kind',
      message: 'protocol `aep/1` does not declare `trace_conformance`',
      hint: `the protocol declares: ${AEP_1_EVIDENCE_KINDS.join(', ')}`,
    })
  })
})

describe('readWorkflow', () => {
  it('keeps states and transitions in document order, guards as written', () => {
    expect(Object.keys(WORKFLOW.states)).toEqual(['implement', 'verify', 'done'])
    expect(WORKFLOW.transitions[1]).toEqual({ from: 'verify', to: 'implement', when: 'tests.unit.failed > 0' })
    expect(WORKFLOW.states['done']?.terminal).toBe(true)
  })

  it('refuses a transition to an undeclared state and an unknown key', () => {
    expect(() => readWorkflowOrThrow('id: a\nversion: 1\ntitle: t\ninitial: x\nstates: {x: {title: X}}\ntransitions: [{from: x, to: y}]\n')).toThrow(/unknown_state at workflow\.transitions\[0\]\.to: `y` is not a declared state/)
    expect(() => readWorkflowOrThrow('id: a\nversion: 1\ntitle: t\ninitial: x\nstates: {x: {title: X, colour: red}}\ntransitions: []\n')).toThrow(/unknown_field at workflow\.states\.x\.colour/)
  })
})
