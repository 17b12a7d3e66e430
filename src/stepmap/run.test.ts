import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { codexLaunch } from '../../adapters/codex/launch.js'
import { readEventText } from '../events/read.js'
import { validateEvidenceText } from '../evidence/intake.js'
import { StepMapError } from './diagnostics.js'
import { readStepMapOrThrow } from './map.js'
import { StepMapRun, type StepMapRunOptions } from './run.js'
import { readWorkflowOrThrow } from './workflow.js'

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url))
const NODE = process.execPath
const command = (name: string): string => join(FIXTURES, 'commands', name)
const AT = 1_787_270_400_000

const WORKFLOW = readWorkflowOrThrow(`id: demo/flow
version: 1
title: t
initial: build
states:
  build: {title: Build}
  check: {title: Check}
  done: {title: Done, terminal: true}
transitions:
  - {from: build, to: check}
  - {from: check, to: build, when: tests.unit.failed > 0}
  - {from: check, to: done, when: tests.unit.failed == 0}
`)

function setup(states: string, options: Partial<StepMapRunOptions> = {}): { run: StepMapRun; workspace: string } {
  const workspace = mkdtempSync(join(tmpdir(), 'vh-stepmap-'))
  const map = readStepMapOrThrow(`format: aep.driver-steps/1\nid: demo/map\nworkflow: demo/flow/1\nstates:\n${states}`)
  return { run: new StepMapRun(map, { workflow: WORKFLOW, runDirectory: 'run', workspace, clock: () => AT, ...options }), workspace }
}

async function runAll(run: StepMapRun): Promise<Awaited<ReturnType<StepMapRun['runStep']>>[]> {
  const results = []
  for (const visit of run.visits()) {
    if (visit.overBudget) {
      results.push(run.enter(visit) ?? { status: 'passed' as const, message: '', evidence: [], attempts: [] })
      continue
    }
    for (const index of visit.steps.keys()) results.push(await run.runStep(visit, index))
  }
  return results
}

function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

describe('command steps: running and minting from the exit status', () => {
  it('mints a passing test_result for exit 0 and a failing one, with the output, for a red suite — neither retried', async () => {
    const { run } = setup(`  check:
    steps:
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '0', 'all green'], evidence: {kind: test_result, verifier: test-runner, suite: unit}}
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '1', '1 failing: adds numbers'], evidence: {kind: test_result, verifier: test-runner, suite: unit}}
`)
    const [green, red] = await runAll(run)
    expect(green).toMatchObject({ status: 'passed', attempts: [{ attempt: 1 }] })
    expect(red?.status).toBe('failed')
    expect(red?.message).toContain('the verifier said no: ')
    expect(red?.message).toContain('1 failing: adds numbers')
    expect(red?.attempts).toHaveLength(1)
    const greenRecord = readFileSync(green?.evidence[0] as string, 'utf8')
    expect(green?.evidence[0]).toBe(join(run.runDirectory, 'evidence', 'check-0-1.yaml'))
    expect(parse(greenRecord)).toEqual([{ kind: 'test_result', suite: 'unit', passed: 1, failed: 0, skipped: 0, observed_at: AT, producer: { producer: 'verifier', verifier: 'test-runner' }, provenance: { command: `${NODE} ${command('exits.js')} 0 all green` } }])
    expect(parse(readFileSync(red?.evidence[0] as string, 'utf8'))[0]).toMatchObject({ passed: 0, failed: 1 })
    for (const path of [...(green?.evidence ?? []), ...(red?.evidence ?? [])]) expect(validateEvidenceText(readFileSync(path, 'utf8'), { now: AT }).accepted).toEqual([1])
  })

  it('mints static_analysis, contract_result and diff; a failed diff has no form, so it is no verdict', async () => {
    const { run } = setup(`  check:
    steps:
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '1'], evidence: {kind: static_analysis, verifier: static-analyzer, tool: clippy}}
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '0'], evidence: {kind: contract_result, verifier: contract-runner}}
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '0'], evidence: {kind: diff, verifier: git}}
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '1'], retries: 0, evidence: {kind: diff, verifier: git}}
`)
    const [analysis, contract, diff, noDiff] = await runAll(run)
    expect(parse(readFileSync(analysis?.evidence[0] as string, 'utf8'))[0]).toMatchObject({ kind: 'static_analysis', tool: 'clippy', errors: 1, warnings: 0 })
    expect(parse(readFileSync(contract?.evidence[0] as string, 'utf8'))[0]).toMatchObject({ kind: 'contract_result', checked: 1, failed: 0, breaking_changes: 0 })
    expect(parse(readFileSync(diff?.evidence[0] as string, 'utf8'))[0]).toMatchObject({ kind: 'diff', producer: { verifier: 'git' }, provenance: { tool: 'git' } })
    expect(noDiff).toMatchObject({ status: 'failed', evidence: [] })
    expect(noDiff?.message).toContain('a `diff` record has no form that says so')
  })

  it('retries a process that produced no verdict, up to its budget, then stops the run; later steps are skipped', async () => {
    const { run, workspace } = setup(`  build:
    steps:
      - {kind: command, run: [${NODE}, ${command('dies-counting.js')}, count.txt], evidence: {kind: test_result, verifier: test-runner, suite: unit}}
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '0']}
`)
    const [died, after] = await runAll(run)
    expect(readFileSync(join(workspace, 'count.txt'), 'utf8')).toBe('attempt\nattempt\nattempt\n')
    expect(died?.status).toBe('failed')
    expect(died?.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3])
    expect(died?.message).toMatch(/^no verdict after 3 attempt\(s\) \(retry budget 2\); the run stops here: .* was killed by SIGKILL before it produced a verdict/)
    expect(died?.evidence).toEqual([])
    expect(existsSync(join(run.runDirectory, 'evidence'))).toBe(false)
    expect(after).toMatchObject({ status: 'skipped', message: expect.stringContaining('not attempted: the run stopped') })
  })

  it('does not retry a program that is missing beyond its budget, and says it could not be run', async () => {
    const { run } = setup(`  build:\n    steps:\n      - {kind: command, run: [no-such-program-vh], retries: 1, evidence: {kind: test_result, verifier: test-runner, suite: unit}}\n`)
    const [missing] = await runAll(run)
    expect(missing?.attempts).toHaveLength(2)
    expect(missing?.message).toContain('`no-such-program-vh` could not be run')
  })

  it('kills a command that hangs at its timeout, and its whole process group is gone', async () => {
    const { run, workspace } = setup(`  build:\n    steps:\n      - {kind: command, run: [${NODE}, ${command('hangs-with-grandchild.js')}, pids.json], retries: 0, evidence: {kind: test_result, verifier: test-runner, suite: unit}}\n`, { commandTimeoutMs: 1500 })
    const started = Date.now()
    const [hung] = await runAll(run)
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(hung?.status).toBe('failed')
    expect(hung?.message).toContain('timed out after 1500 milliseconds, and its process group was stopped')
    const pids = JSON.parse(readFileSync(join(workspace, 'pids.json'), 'utf8')) as number[]
    expect(pids).toHaveLength(2)
    for (const pid of pids) expect(isAlive(pid)).toBe(false)
  })

  it('runs with a constructed environment: nothing inherited beyond PATH, HOME, TMPDIR, LANG and what the run adds', async () => {
    const { run, workspace } = setup(`  build:\n    steps:\n      - {kind: command, run: [${NODE}, -e, "require('fs').writeFileSync('env.json', JSON.stringify(Object.keys(process.env).sort()))"]}\n`, { env: { STEP_MARKER: 'yes' } })
    process.env['VH_SHOULD_NOT_LEAK'] = 'secret'
    try {
      await runAll(run)
    } finally {
      delete process.env['VH_SHOULD_NOT_LEAK']
    }
    const names = JSON.parse(readFileSync(join(workspace, 'env.json'), 'utf8')) as string[]
    expect(names).toContain('STEP_MARKER')
    expect(names).not.toContain('VH_SHOULD_NOT_LEAK')
    expect(names.filter((name) => !['PATH', 'HOME', 'TMPDIR', 'LANG', 'STEP_MARKER'].includes(name))).toEqual([])
  })
})

describe('command steps: reading the record the verifier wrote', () => {
  const step = (shape: string, code = '0'): string => `  build:\n    steps:\n      - {kind: command, run: [${NODE}, ${command('writes-record.js')}, "{run_directory}/trace.yaml", ${shape}, '${code}'], retries: 0, evidence: {kind: trace_conformance, verifier: trace-checker, record: "{run_directory}/trace.yaml"}}\n`

  it('takes a valid record as the verdict, whatever the exit status', async () => {
    const { run } = setup(step('trace-passed', '1'))
    const [read] = await runAll(run)
    expect(read).toMatchObject({ status: 'passed', evidence: [join(run.runDirectory, 'trace.yaml')] })
    expect(read?.message).toContain('trace_conformance from')
  })

  it('fails on a record that says the check failed, with the verifier’s output', async () => {
    const { run } = setup(step('trace-failed'))
    const [read] = await runAll(run)
    expect(read?.status).toBe('failed')
    expect(read?.message).toContain('1 of 3 expectation(s) gapped (wrote-the-test)')
    expect(read?.message).toContain('wrote trace-failed')
  })

  it('does not take a record left from before the attempt as this attempt’s', async () => {
    const { run } = setup(step('none'))
    mkdirSync(run.runDirectory, { recursive: true })
    const stale = join(run.runDirectory, 'trace.yaml')
    writeFileSync(stale, '- stale\n')
    const [read] = await runAll(run)
    expect(read?.status).toBe('failed')
    expect(read?.message).toContain(`the verifier wrote no record at ${stale} in this attempt`)
  })

  it.each([
    ['none', /the verifier wrote no record at .*\/run\/trace\.yaml: no such file/],
    ['not-yaml', /the record at .*\/run\/trace\.yaml is not an evidence document the engine reads:\n {2}.*trace\.yaml:1:\d+: NOT_YAML/],
    ['missing-observed-at', /the record at .*\/run\/trace\.yaml is not an evidence document the engine reads:\n {2}.*record 1: MISSING_FIELD at observed_at/],
    ['wrong-kind', /record 1 is `test_result`, and the step declares `trace_conformance`/],
  ])('fails with the path and the reason when the record is %s', async (shape, reason) => {
    const { run } = setup(step(shape))
    const [read] = await runAll(run)
    expect(read?.status).toBe('failed')
    expect(read?.message).toMatch(reason)
    expect(read?.evidence).toEqual([])
  })
})

describe('placeholders, the circuit breaker and the visit budget', () => {
  it('expands {run_directory} and {task} (absolute), and refuses {task} in a run that names none', async () => {
    const script = "require('fs').writeFileSync(process.argv[1], process.argv[2])"
    const { run, workspace } = setup(`  build:\n    steps:\n      - {kind: command, run: [${NODE}, -e, "${script}", "{run_directory}/seen.txt", "{task}"]}\n`, { task: 'task.yaml' })
    await runAll(run)
    expect(readFileSync(join(run.runDirectory, 'seen.txt'), 'utf8')).toBe(join(workspace, 'task.yaml'))
    const bare = setup(`  build:\n    steps:\n      - {kind: command, run: [${NODE}, -e, "0", "{task}"], retries: 0}\n`)
    const [refused] = await runAll(bare.run)
    expect(refused?.message).toContain('`{task}` is the task document the run drives')
  })

  it('skips, never fails, the later steps of a dependency whose circuit is open', async () => {
    const { run, workspace } = setup(`  build:
    steps:
      - {kind: command, run: [${NODE}, ${command('dies-counting.js')}, a.txt], retries: 3, depends_on: registry, circuit_breaker: 2}
      - {kind: command, run: [${NODE}, ${command('dies-counting.js')}, b.txt], depends_on: registry, circuit_breaker: 2}
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '0'], evidence: {kind: test_result, verifier: test-runner, suite: unit}}
`)
    const [opened, skipped, unrelated] = await runAll(run)
    // Two failures of `registry` open its circuit: the third attempt is never made.
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('attempt\nattempt\n')
    expect(opened).toMatchObject({ status: 'skipped', message: expect.stringContaining('not attempted again: `registry` has failed 2 time(s)'), evidence: [] })
    expect(opened?.attempts).toHaveLength(2)
    expect(skipped).toMatchObject({ status: 'skipped', message: expect.stringContaining('its circuit is open'), evidence: [] })
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false)
    // An open circuit is not a stopped run: a step that does not need the dependency still runs.
    expect(unrelated?.status).toBe('passed')
  })

  it('counts visits, numbers attempts across them, and stops at a spent visit budget', async () => {
    const { run } = setup(`  build:
    visit_budget: 2
    steps:
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '0'], evidence: {kind: test_result, verifier: test-runner, suite: unit}}
  check:
    steps:
      - {kind: command, run: [${NODE}, ${command('exits.js')}, '0']}
`, { states: ['build', 'check', 'build', 'check', 'build', 'check'] })
    expect(run.visits().map((visit) => [visit.state, visit.visit, visit.overBudget?.budget])).toEqual([
      ['build', 1, undefined],
      ['check', 1, undefined],
      ['build', 2, undefined],
      ['check', 2, undefined],
      ['build', 3, 2],
      ['check', 3, undefined],
    ])
    const results = await runAll(run)
    expect(results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'failed', 'skipped'])
    expect(results[2]?.evidence).toEqual([join(run.runDirectory, 'evidence', 'build-0-2.yaml')])
    expect(results[4]?.message).toContain('state `build` has been entered 3 times and its visit budget is 2')
  })

  it('refuses at construction a map the protocol in force does not admit, and a visit to an unknown state', () => {
    const map = `  check:\n    steps:\n      - {kind: llm, prompt: go}\n      - {kind: command, run: [x, "{transcript}"], evidence: {kind: trace_conformance, verifier: trace-checker, record: t.yaml}}\n`
    expect(() => setup(map, { protocol: { reference: 'aep/1', evidenceKinds: ['test_result'] } })).toThrow(StepMapError)
    expect(() => setup(map, { states: ['polish'] })).toThrow(/`polish` is not a state of workflow `demo\/flow`/)
  })
})

describe('llm steps', () => {
  const provider = (): { baseUrl: string; wire: 'openai-responses' } => ({ baseUrl: 'http://127.0.0.1:9/v1', wire: 'openai-responses' })
  const harness = { codex: { launch: codexLaunch, program: join(FIXTURES, 'harnesses', 'writes-files.js') } }
  const llmMap = (prompt: string): string => `  build:
    steps:
      - kind: llm
        harness: codex
        prompt: "${prompt}"
        scope:
          - {paths: [".engineering/planning/**"], write: denied}
          - {paths: ["src/**"], write: partial-only}
          - {paths: ["**"], write: allowed}
      - {kind: command, run: [${NODE}, -e, "require('fs').copyFileSync(process.argv[1], 'copied.jsonl')", "{transcript}"]}
`

  it('writes step-context.json, launches the harness, saves the transcript and hands it to the next step', async () => {
    const { run, workspace } = setup(llmMap('WRITE notes/plan.md'), { provider, harness, capabilities: () => ['repository.read', 'repository.write', 'command.execute'] })
    const [llm, after] = await runAll(run)
    const transcript = join(run.runDirectory, 'transcripts', 'build-0-1.jsonl')
    expect(llm).toMatchObject({ status: 'passed', transcript })
    expect(after?.status).toBe('passed')
    const text = readFileSync(transcript, 'utf8')
    expect(readFileSync(join(workspace, 'copied.jsonl'), 'utf8')).toBe(text)
    const { events, diagnostics } = readEventText(text)
    expect(diagnostics).toEqual([])
    expect(events.map((event) => event.event)).toContain('tool.requested')
    expect(events.every((event) => event.run === 'build-0-1')).toBe(true)
    // The closing marker is this stream's: its run id, and the lines before it.
    expect(events[events.length - 1]).toMatchObject({ event: 'stream.closed', run_id: 'build-0-1', events: events.length - 1 })
    const context = readFileSync(join(run.runDirectory, 'step-context.json'), 'utf8')
    expect(readFileSync(join(workspace, '.seen-step-context.json'), 'utf8')).toBe(context)
    // The run directory holds the run's products; the harness's own home lived under the OS temp
    // dir and is gone once the harness ran.
    expect(readdirSync(run.runDirectory).sort()).toEqual(['step-context.json', 'transcripts'])
    const home = readFileSync(join(workspace, '.seen-home'), 'utf8')
    expect(home.startsWith(join(tmpdir(), 'vh-step-build-0-1-'))).toBe(true)
    expect(existsSync(home)).toBe(false)
    expect(context.endsWith('}\n')).toBe(true)
    expect(Object.keys(JSON.parse(context) as object)).toEqual(['format', 'run_directory', 'store', 'state', 'step_index', 'attempt', 'shell_offered', 'capabilities', 'tools', 'reaching'])
    expect(JSON.parse(context)).toEqual({
      format: 'aep.drive-step-context/1',
      run_directory: run.runDirectory,
      store: join(workspace, '.engineering', 'planning'),
      state: 'build',
      step_index: 0,
      attempt: 1,
      shell_offered: true,
      capabilities: ['repository.read', 'repository.write', 'command.execute'],
      tools: ['apply_patch', 'exec_command', 'grep_files', 'list_dir', 'read_file'],
      reaching: [],
    })
  })

  it('fails a write outside the scope with the path and the rule, and still hands the transcript on', async () => {
    const { run } = setup(llmMap('WRITE src/ok.ts\\nWRITE .engineering/planning/story.md'), { provider, harness })
    const [llm, after] = await runAll(run)
    expect(llm?.status).toBe('failed')
    expect(llm?.message).toContain("`file_change` wrote `.engineering/planning/story.md`, and the step's scope answers `denied` for it, on the rule `.engineering/planning/**`")
    expect(llm?.message).not.toContain('src/ok.ts')
    expect(after?.status).toBe('passed')
  })

  it('is no verdict without a provider or a launch, retried once', async () => {
    const { run } = setup(llmMap('x'), { harness })
    const [llm, after] = await runAll(run)
    expect(llm?.attempts).toHaveLength(2)
    expect(llm?.message).toContain('this run was given none (pass `provider`)')
    expect(after?.status).toBe('skipped')
    const unknown = setup(llmMap('x').replace('harness: codex', 'harness: hermes-agent'), { provider })
    expect((await runAll(unknown.run))[0]?.message).toContain('the step names harness `hermes-agent`, and no launch is declared for `hermes-agent`')
  })

  it('is no verdict when the provider says it could not answer, however the harness exited', async () => {
    let closed = 0
    const unanswering = () => ({ ...provider(), close: () => ((closed += 1), 'the provider had no answer for 1 request(s) in build-0.cassette.jsonl') })
    const { run } = setup(llmMap('WRITE notes/a.md'), { provider: unanswering, harness })
    const [llm] = await runAll(run)
    expect(closed).toBe(2)
    expect(llm?.status).toBe('failed')
    expect(llm?.message).toContain('the run stops here: the provider had no answer for 1 request(s) in build-0.cassette.jsonl')
  })

  it('is no verdict when the harness fails, with what it said', async () => {
    const { run } = setup(llmMap('x'), { provider, harness: { codex: { launch: codexLaunch, program: join(FIXTURES, 'harnesses', 'exits-2.js') } } })
    const [llm] = await runAll(run)
    expect(llm?.message).toMatch(/Command failed with exit code 2: [\s\S]*; it said: error: unexpected argument; the transcript is at .*build-0-2\.jsonl$/)
    // A run with no verdict keeps the harness's scratch root, and says where.
    const kept = /the harness's scratch root is kept at (\S+);/.exec(llm?.message ?? '')?.[1]
    expect(kept?.startsWith(join(tmpdir(), 'vh-step-build-0-2-'))).toBe(true)
    expect(existsSync(kept as string)).toBe(true)
  })
})
