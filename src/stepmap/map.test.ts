import { describe, expect, it } from 'vitest'
import { renderStepMapDiagnostic, StepMapError } from './diagnostics.js'
import { readStepMap, readStepMapOrThrow } from './map.js'
import { retryBudget, type CommandStep, type LlmStep } from './types.js'

function map(states: string, workflow = 'adp/default/1', extra = ''): string {
  return `format: aep.driver-steps/1\nid: development/default\nworkflow: ${workflow}\n${extra}states:\n${states}`
}

function refusals(text: string): { code: string; location: string; message: string }[] {
  const reading = readStepMap(text)
  expect(reading.map).toBeUndefined()
  return reading.diagnostics.map(({ code, location, message }) => ({ code, location, message }))
}

const ONE_COMMAND = `  implement:
    steps:
      - kind: command
        run: [cargo, test]
        evidence: {kind: test_result, verifier: test-runner, suite: unit}
`

describe('readStepMap: a valid map', () => {
  it('carries its pin, its defaults and every step as written', () => {
    const reading = readStepMap(
      map(`  implement:
    steps:
      - {kind: command, run: [x]}
      - {kind: command, run: [y], retries: 0, depends_on: staging-cluster, circuit_breaker: 3}
      - {kind: llm, prompt: go, context: [docs/skill.md], scope: [{paths: [".engineering/planning/**"], write: partial-only}, {paths: ["**"], write: denied}]}
      - {kind: operator, prompt: decide}
  verify:
    visit_budget: 5
    steps: []
`),
    )
    expect(reading.diagnostics).toEqual([])
    const implement = reading.map?.states['implement']
    expect(reading.map?.workflow).toEqual({ id: 'adp/default', major: 1 })
    expect(implement?.visitBudget).toBe(3)
    expect(reading.map?.states['verify']?.visitBudget).toBe(5)
    const [first, second, llm, operator] = implement?.steps ?? []
    expect(first).toEqual({ kind: 'command', run: ['x'], retries: 2 })
    expect(second).toMatchObject({ retries: 0, dependsOn: 'staging-cluster', circuitBreaker: 3 })
    expect(llm).toEqual({ kind: 'llm', prompt: 'go', context: ['docs/skill.md'], scope: [{ paths: ['.engineering/planning/**'], write: 'partial-only' }, { paths: ['**'], write: 'denied' }], skills: [], harness: 'claude-code' })
    expect([first, second, llm, operator].map((step) => retryBudget(step as never))).toEqual([2, 0, 1, 0])
  })

  it('admits a kind no exit status can carry when the verifier writes the record, and an alias for the kind', () => {
    const reading = readStepMap(
      map(`  implement:
    steps:
      - {kind: llm, prompt: do the work}
      - kind: command
        run: [aep, observe, trace, evidence, --transcript, "{transcript}", --out, "{run_directory}/trace.yaml"]
        evidence: {kind: trace_conformance, verifier: trace-checker, record: "{run_directory}/trace.yaml"}
      - kind: command
        run: [git, diff]
        evidence: {kind: source_diff, verifier: git}
`),
    )
    expect(reading.diagnostics).toEqual([])
    const steps = reading.map?.states['implement']?.steps as [LlmStep, CommandStep, CommandStep]
    expect(steps[1].evidence).toEqual({ kind: 'trace_conformance', verifier: 'trace-checker', record: '{run_directory}/trace.yaml' })
    expect(steps[2].evidence?.kind).toBe('diff')
  })

  it('leaves `{}` and `{a: .b}` alone: they are text, not placeholders', () => {
    const reading = readStepMap(map(`  implement:\n    steps:\n      - {kind: command, run: [find, ., -exec, rm, "{}", ";"]}\n      - {kind: command, run: [jq, "{a: .b}"]}\n`))
    expect(reading.diagnostics).toEqual([])
  })
})

describe('readStepMap: refusals, each with its code, location and reason', () => {
  it('refuses an llm step carrying evidence, by the field', () => {
    expect(refusals(map(`  implement:\n    steps:\n      - {kind: llm, prompt: go, evidence: {kind: test_result, verifier: test-runner}}\n`))).toEqual([
      { code: 'unknown_field', location: 'driver-steps[development/default].states.implement.steps[0].evidence', message: expect.stringContaining('an `llm` step cannot carry evidence') },
    ])
  })

  it('refuses an unknown placeholder and names all three in the hint', () => {
    const reading = readStepMap(map(`  implement:\n    steps:\n      - {kind: command, run: [check, --at, "{transcirpt}"]}\n`))
    expect(reading.diagnostics).toHaveLength(1)
    const [only] = reading.diagnostics
    expect(only).toMatchObject({ code: 'undeclared_reference', location: 'driver-steps[development/default].states.implement.steps[0].run', message: 'nothing in a run expands `{transcirpt}`' })
    expect(only?.hint).toBe('a step may name: {run_directory}, {task}, {transcript}')
  })

  it('refuses a placeholder misspelt in the record path too', () => {
    expect(refusals(map(`  implement:\n    steps:\n      - {kind: command, run: [x], evidence: {kind: verification, verifier: protocol, record: "{run_dir}/v.yaml"}}\n`))).toEqual([
      { code: 'undeclared_reference', location: 'driver-steps[development/default].states.implement.steps[0].run', message: 'nothing in a run expands `{run_dir}`' },
    ])
  })

  it('refuses `{transcript}` with no llm step before it in the same state', () => {
    expect(refusals(map(`  implement:\n    steps:\n      - {kind: command, run: [check, "{transcript}"]}\n      - {kind: llm, prompt: too late}\n`))).toEqual([
      { code: 'missing_declaration', location: 'driver-steps[development/default].states.implement.steps[0].run', message: expect.stringContaining('no step of `implement` before it is one') },
    ])
  })

  it('refuses a scope whose last rule does not name `**`', () => {
    expect(refusals(map(`  specify:\n    steps:\n      - {kind: llm, prompt: go, scope: [{paths: ["crates/**"], write: allowed}]}\n`))).toEqual([
      { code: 'empty_declaration', location: 'driver-steps[development/default].states.specify.steps[0].scope', message: expect.stringContaining('the last scope rule must name `**`') },
    ])
  })

  it('refuses a scope rule about no path, and an unknown scope word', () => {
    expect(refusals(map(`  specify:\n    steps:\n      - {kind: llm, prompt: go, scope: [{paths: [], write: denied}]}\n      - {kind: llm, prompt: go, scope: [{paths: ["**"], write: everything}]}\n`))).toEqual([
      { code: 'empty_declaration', location: 'driver-steps[development/default].states.specify.steps[0].scope', message: 'a scope rule with no paths is about nothing' },
      { code: 'invalid_value', location: 'driver-steps[development/default].states.specify.steps[1].scope[0].write', message: 'unknown variant string "everything", expected one of `allowed`, `partial-only`, `denied`' },
    ])
  })

  it('refuses a non-mintable kind without `record`', () => {
    expect(refusals(map(`  implement:\n    steps:\n      - {kind: command, run: [aep, observe, trace, check], evidence: {kind: trace_conformance, verifier: trace-checker}}\n`))).toEqual([
      { code: 'unsupported_construct', location: 'driver-steps[development/default].states.implement.steps[0].evidence.kind', message: 'a driver reads an exit status, which cannot establish `trace_conformance`' },
    ])
  })

  it('refuses a minted test_result that names no suite, and lets a written one name its own', () => {
    expect(refusals(map(`  implement:\n    steps:\n      - {kind: command, run: [x], evidence: {kind: test_result, verifier: test-runner}}\n`))).toEqual([
      { code: 'missing_declaration', location: 'driver-steps[development/default].states.implement.steps[0].evidence.suite', message: expect.stringContaining('names the suite that ran') },
    ])
    expect(readStepMap(map(`  implement:\n    steps:\n      - {kind: command, run: [x], evidence: {kind: test_result, verifier: test-runner, record: r.yaml}}\n`)).diagnostics).toEqual([])
  })

  it('refuses an unpinned workflow with the reference to write', () => {
    const [only] = readStepMap(map(ONE_COMMAND, 'adp/default')).diagnostics
    expect(only).toEqual({
      code: 'missing_declaration',
      location: 'driver-steps.workflow',
      message: '`adp/default` does not pin a major version, and a step map is written against a specific one',
      hint: "write `adp/default/1`, naming the major version this map's states and step order were written against",
    })
  })

  it('refuses a wrong format version and a malformed id', () => {
    const text = map(ONE_COMMAND).replace('aep.driver-steps/1', 'aep.driver-steps/2').replace('id: development/default', 'id: development/2')
    expect(refusals(text).map(({ code, location }) => [code, location])).toEqual([
      ['invalid_value', 'driver-steps.id'],
      ['unsupported_format_version', 'driver-steps.format'],
    ])
  })

  it('accumulates: four broken steps report four refusals, not one for the document', () => {
    const text = map(`  implement:
    steps:
      - {kind: command, run: []}
      - {kind: command, run: [x], evidence: {kind: metric_observation, verifier: compiler}}
      - {kind: command, run: [x], evidence: {kind: test_result, verifier: test-runner}}
      - {kind: llm, prompt: "  "}
`)
    expect(refusals(text).map(({ code, location }) => [code, location.replace('driver-steps[development/default].states.implement.', '')])).toEqual([
      ['empty_declaration', 'steps[0].run'],
      ['unsupported_construct', 'steps[1].evidence.kind'],
      ['missing_declaration', 'steps[2].evidence.suite'],
      ['empty_declaration', 'steps[3].prompt'],
    ])
  })

  it('refuses a circuit breaker that cannot work, a zero visit budget and an empty map', () => {
    const text = map(`  implement:
    visit_budget: 0
    steps:
      - {kind: command, run: [x], circuit_breaker: 2}
      - {kind: command, run: [x], depends_on: api, circuit_breaker: 0}
      - {kind: command, run: [x], depends_on: "  ", circuit_breaker: 2}
`)
    expect(refusals(text).map(({ location, message }) => [location.replace('driver-steps[development/default].states.implement.', ''), message.split(';')[0]])).toEqual([
      ['visit_budget', 'a visit budget of zero forbids entering a state the workflow can reach'],
      ['steps[0].circuit_breaker', 'a circuit breaker is keyed by `depends_on`, and this step names no dependency'],
      ['steps[1].circuit_breaker', 'a circuit breaker of 0 opens before anything is attempted'],
      ['steps[2].depends_on', 'a dependency with no name cannot be shared with the other steps that need it'],
    ])
    expect(refusals(map('  {}\n'))).toEqual([{ code: 'empty_declaration', location: 'driver-steps[development/default].states', message: expect.stringContaining('no states') }])
  })

  it('refuses context that is a glob or blank, and an empty operator prompt', () => {
    expect(refusals(map(`  receive:\n    steps:\n      - {kind: llm, prompt: go, context: ["crates/**/*.rs", " "]}\n      - {kind: operator, prompt: ""}\n`)).map(({ location, message }) => [location.split('.states.')[1], message.slice(0, 40)])).toEqual([
      ['receive.steps[0].context', '`crates/**/*.rs` is a glob, and context '],
      ['receive.steps[0].context', 'a blank context entry names no file'],
      ['receive.steps[1].prompt', 'an operator step with an empty prompt te'],
    ])
  })

  it('refuses unknown keys, missing keys, an unknown step kind, bad verifier and suite names', () => {
    const text = map(`  implement:
    budget: 3
    steps:
      - {kind: command}
      - {kind: shell, run: [x]}
      - {kind: command, run: [x], evidence: {kind: tests, verifier: Test Runner, suite: Unit}}
`, 'adp/default/1', 'owner: me\n')
    expect(refusals(text).map(({ code, location }) => [code, location])).toEqual([
      ['unknown_field', 'driver-steps[development/default].owner'],
      ['unknown_field', 'driver-steps[development/default].states.implement.budget'],
    ])
    const steps = map(`  implement:
    steps:
      - {kind: command}
      - {kind: shell, run: [x]}
      - {kind: command, run: [x], evidence: {kind: tests, verifier: Test Runner, suite: Unit}}
`)
    expect(refusals(steps).map(({ code, location }) => [code, location.split('.states.')[1]])).toEqual([
      ['missing_field', 'implement.steps[0].run'],
      ['invalid_value', 'implement.steps[1].kind'],
      ['invalid_value', 'implement.steps[2].evidence.kind'],
      ['invalid_value', 'implement.steps[2].evidence.verifier'],
      ['invalid_value', 'implement.steps[2].evidence.suite'],
    ])
  })

  it('refuses a key written twice, and text that is not YAML, with a position', () => {
    expect(refusals(map(`  implement:\n    steps: []\n  implement:\n    steps: []\n`)).map(({ code }) => code)).toEqual(['duplicate_key'])
    const [broken] = refusals('format: [unclosed\n')
    expect(broken?.code).toBe('not_yaml')
    expect(broken?.location).toMatch(/^driver-steps:\d+:\d+$/)
  })

  it('renders one `CODE at location: message (hint: …)` line, and the throwing reader carries them all', () => {
    const text = map(ONE_COMMAND, 'adp/default')
    expect(renderStepMapDiagnostic(readStepMap(text).diagnostics[0] as never)).toBe(
      "missing_declaration at driver-steps.workflow: `adp/default` does not pin a major version, and a step map is written against a specific one (hint: write `adp/default/1`, naming the major version this map's states and step order were written against)",
    )
    expect(() => readStepMapOrThrow(text, { source: 'm.yaml' })).toThrow(StepMapError)
    expect(() => readStepMapOrThrow(text, { source: 'm.yaml' })).toThrow(/^m\.yaml is not an aep\.driver-steps\/1 step map — 1 refusal\(s\):\nmissing_declaration at driver-steps\.workflow/)
  })
})
