import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, it } from 'vitest'
import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'
import { findLaunch } from '../../adapters/launch/launches.js'
import { convertTranscriptSync } from '../../adapters/transcript/read.js'
import { SUBAGENT_CALLS_UNSEEN } from '../../src/events/subagent-calls-unseen.js'
import type { Emission } from '../../src/events/types.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { convertPath } from '../helpers/project.js'
import { CLAUDE_CODE, CODEX, ensureHarness, OPENCODE, QWEN } from './harness-install.js'
import { E2E_ROOT, filesUnder, freshDir, runDeclaredLaunch, type DeclaredRun } from './harness-run.js'

// What the real harnesses print when the model delegates to a subagent, and what our readers make
// of it. The scripted model gives the subagent a conversation of its own (a scenario thread, told
// by the prompt the parent passed it) that runs `wc -l README.md`: where that call lands decides
// whether the parent's stdout can prove an absence. Gemini CLI, opencode, Codex and a background
// Qwen Code agent leave it out of stdout, so the reader must withhold closure; a foreground Qwen Code
// agent and Claude Code (whose agent runs in the background) stream it, so the stream still closes.
const GEMINI = findLaunch('gemini') as LaunchDeclaration
const SUBAGENT_PROMPT = 'Report how many lines README.md has.'
const SUBAGENT_COMMAND = 'wc -l README.md'

const programs = new Map<string, string>()
beforeAll(() => {
  for (const launch of [QWEN, OPENCODE, GEMINI, CLAUDE_CODE, CODEX]) programs.set(launch.adapter, ensureHarness(launch))
}, 900_000)

function scenario(name: string, parentTurns: unknown[], subagentTurns: unknown[]): string {
  const dir = join(E2E_ROOT, 'subagents')
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${name}.json`)
  writeFileSync(path, JSON.stringify({ scenario: name, turns: parentTurns, threads: [{ when: { first_user_text_contains: SUBAGENT_PROMPT }, turns: subagentTurns }], untooled: { text: 'A title' } }))
  return path
}

async function run(launch: LaunchDeclaration, wire: Wire, name: string, scenarioPath: string): Promise<DeclaredRun> {
  const workspace = freshDir('subagents', name, 'work')
  writeFileSync(join(workspace, 'README.md'), 'hello harness\n')
  const ran = await runDeclaredLaunch({ launch, program: programs.get(launch.adapter) as string, wire, serveArgs: ['--scenario', scenarioPath], label: name, prompt: 'Delegate the work to a subagent.', workspace, scratch: freshDir('subagents', name, 'root') })
  expect(ran.result.exitCode, ran.result.stderr).toBe(0)
  return ran
}

const shellCommands = (events: readonly Emission[]) => events.flatMap((event) => (event.event === 'tool.requested' && event.operations?.includes('shell') ? [JSON.stringify(event.input)] : []))
const closed = (events: readonly Emission[]) => events.some((event) => event.event === 'stream.closed')
const unseenWarnings = (events: readonly Emission[]) => events.filter((event) => event.event === 'warning' && event.code === SUBAGENT_CALLS_UNSEEN)

async function stdoutEvents(ran: DeclaredRun, name: string): Promise<Emission[]> {
  const path = join(E2E_ROOT, 'subagents', `${name}.stdout.jsonl`)
  writeFileSync(path, ran.result.stdout)
  return convertPath(path)
}

/** The subagent's call is not in stdout; its reader says so, once, and proves no closure. The stdout's events. */
async function expectLeftOut(ran: DeclaredRun, name: string): Promise<Emission[]> {
  expect(ran.result.stdout).not.toContain(SUBAGENT_COMMAND)
  const events = await stdoutEvents(ran, name)
  expect(unseenWarnings(events)).toHaveLength(1)
  expect(closed(events)).toBe(false)
  return events
}

/** The subagent's call is in stdout, and the stream still closes. */
async function expectCarried(ran: DeclaredRun, name: string): Promise<void> {
  const events = await stdoutEvents(ran, name)
  expect(shellCommands(events)).toEqual([expect.stringContaining(SUBAGENT_COMMAND)])
  expect(unseenWarnings(events)).toEqual([])
  expect(closed(events)).toBe(true)
}

/** The subagent's own record (its file, its child session's export) holds its call. */
async function expectSubagentCallIn(path: string): Promise<void> {
  expect(shellCommands(await convertPath(path))).toEqual([expect.stringContaining(SUBAGENT_COMMAND)])
}

/** What this suite reads of a stream-json record (Claude Code's and Qwen Code's). */
interface StreamRecord {
  type?: string
  parent_tool_use_id?: unknown
  message?: { id?: string; usage?: { input_tokens?: number } }
  usage?: { input_tokens: number; cache_read_input_tokens?: number }
  modelUsage?: Record<string, { inputTokens: number }>
}

/** The records a harness printed on stdout, one JSON object a line. */
function stdoutRecords(ran: DeclaredRun): StreamRecord[] {
  return ran.result.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as StreamRecord)
}

/**
 * A foreground agent's last request (its answer to the agent call) is not in the stream: the
 * provider answered more requests than the stream has request records, and a ceiling on
 * `api_requests` the records meet is unknown, not ok; so is a share of the requests' usage that
 * the records alone hold (a floor far under any share of a few requests).
 */
async function expectLastRequestUnseen(ran: DeclaredRun, records: readonly StreamRecord[], path: string): Promise<void> {
  const streamed = new Set(records.flatMap((record) => (record.type === 'assistant' && record.message?.id !== undefined ? [record.message.id] : []))).size
  expect(ran.requests.length, 'the provider answered more requests than the stream shows').toBeGreaterThan(streamed)
  const spec = readSpec(
    `format: trace-spec/1\nid: requests\nexpectations:\n  - id: requests\n    expect: {api_requests: {count: {at_most: ${streamed}}}}\n  - id: share\n    expect: {usage.share: {field: output_tokens, at_least: 0.01}}\n`,
  )
  const unseen = { outcome: 'undecidable', reason: 'subagent_requests_unseen' }
  expect((await checkTranscriptFile(spec, path)).expectations.map((row) => row.outcome)).toEqual([expect.objectContaining(unseen), expect.objectContaining(unseen)])
}

const SUBAGENT_SHELL = { tool_calls: [{ name: 'run_shell_command', arguments: { command: SUBAGENT_COMMAND, description: 'the subagent’s own call' } }] }

describe('a subagent’s calls, on the real harnesses: in their stdout or not, and what the readers conclude', () => {
  it('Qwen Code, a background agent: its call is only in its own session file, so the stream proves no closure', async () => {
    const ran = await run(QWEN, 'openai-chat', 'qwen-background', scenario('qwen-background', [
      { tool_calls: [{ name: 'agent', arguments: { description: 'Echo', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose', run_in_background: true } }] },
      { text: 'The agent is working.' },
      { text: 'The agent printed from-subagent.' },
      { text: 'Done.' },
    ], [SUBAGENT_SHELL, { text: 'It printed from-subagent.' }]))
    await expectLeftOut(ran, 'qwen-background')
    const projects = join(ran.result.scratch, 'home', '.qwen', 'projects')
    const sidechains = filesUnder(projects).filter((file) => /^[^/]+\/subagents\/[^/]+\/agent-[^/]+\.jsonl$/.test(relative(projects, file)))
    expect(sidechains).toHaveLength(1)
    await expectSubagentCallIn(sidechains[0] as string)
  })

  it('Qwen Code, a foreground agent: its call is in the stream, which still closes; its result’s usage counts its requests in, and the stream leaves out its last', async () => {
    const ran = await run(QWEN, 'openai-chat', 'qwen-foreground', scenario('qwen-foreground', [
      { tool_calls: [{ name: 'agent', arguments: { description: 'Echo', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose', run_in_background: false } }] },
      { text: 'The agent printed from-subagent.' },
    ], [SUBAGENT_SHELL, { text: 'It printed from-subagent.' }]))
    await expectCarried(ran, 'qwen-foreground')
    // Unlike Claude Code's, its result's usage sums the subagent's requests with the main
    // conversation's, so a total read off it is the run's and decides.
    const records = stdoutRecords(ran)
    const mainInput = records.filter((record) => record.type === 'assistant' && record.parent_tool_use_id == null).reduce((sum, record) => sum + (record.message?.usage?.input_tokens ?? 0), 0)
    const result = records.find((record) => record.type === 'result')?.usage
    expect(result?.input_tokens).toBeGreaterThan(mainInput)
    const uncached = (result?.input_tokens ?? 0) - (result?.cache_read_input_tokens ?? 0)
    const spec = readSpec(`format: trace-spec/1\nid: spend\nexpectations:\n  - id: within\n    expect: {tokens.input: {count: {at_most: ${uncached}}}}\n  - id: over\n    expect: {tokens.input: {count: {at_most: ${uncached - 1}}}}\n`)
    const rows = (await checkTranscriptFile(spec, join(E2E_ROOT, 'subagents', 'qwen-foreground.stdout.jsonl'))).expectations
    expect(rows.map((row) => row.verdict)).toEqual(['ok', 'gap'])
    await expectLastRequestUnseen(ran, records, join(E2E_ROOT, 'subagents', 'qwen-foreground.stdout.jsonl'))
  })

  it('Gemini CLI: the generalist’s call is only in its own chat file, so the stream proves no closure', async () => {
    const ran = await run(GEMINI, 'gemini', 'gemini', scenario('gemini', [
      { tool_calls: [{ name: 'invoke_agent', arguments: { agent_name: 'generalist', prompt: SUBAGENT_PROMPT } }] },
      { text: 'The generalist printed from-subagent.' },
    ], [SUBAGENT_SHELL, { tool_calls: [{ name: 'complete_task', arguments: { result: { response: 'from-subagent' } } }] }, { text: 'Done.' }]))
    await expectLeftOut(ran, 'gemini')
    const tmp = join(ran.result.scratch, 'home', '.gemini', 'tmp')
    const chats = filesUnder(tmp).filter((file) => /^[^/]+\/chats\/[^/]+\/[^/]+\.jsonl$/.test(relative(tmp, file)))
    expect(chats).toHaveLength(1)
    expect(readFileSync(chats[0] as string, 'utf8')).toContain('"kind":"subagent"')
    await expectSubagentCallIn(chats[0] as string)
  })

  it('opencode: the task subagent’s call is only in its child session, so the stream proves no closure', async () => {
    const ran = await run(OPENCODE, 'openai-chat', 'opencode', scenario('opencode', [
      { tool_calls: [{ name: 'task', arguments: { description: 'Echo', prompt: SUBAGENT_PROMPT, subagent_type: 'general' } }] },
      { text: 'The subagent printed from-subagent.' },
    ], [{ tool_calls: [{ name: 'bash', arguments: { command: SUBAGENT_COMMAND, description: 'the subagent’s own call' } }] }, { text: 'It printed from-subagent.' }]))
    await expectLeftOut(ran, 'opencode')
    const child = /"sessionId":"(ses_[0-9A-Za-z]+)"/.exec(ran.result.stdout)?.[1]
    expect(child, 'the task part names its child session').toBeDefined()
    const exported = await execa(programs.get('opencode') as string, ['export', child as string], { cwd: join(E2E_ROOT, 'subagents', 'opencode', 'work'), env: ran.result.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 120_000 })
    expect(exported.exitCode, exported.stderr).toBe(0)
    const exportPath = join(E2E_ROOT, 'subagents', 'opencode.child.json')
    writeFileSync(exportPath, exported.stdout)
    await expectSubagentCallIn(exportPath)
  })

  it('Claude Code, a background agent: its call is in the stream (parent_tool_use_id), which still closes', async () => {
    const ran = await run(CLAUDE_CODE, 'anthropic-messages', 'claude', scenario('claude', [
      { tool_calls: [{ name: 'Agent', arguments: { description: 'Count lines', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose' } }] },
      { text: 'The subagent is counting the lines.' },
      // 2.1.328 runs the agent in the background and wakes the main conversation when it is done.
      { text: 'The subagent counted one line.' },
    ], [{ tool_calls: [{ name: 'Bash', arguments: { command: SUBAGENT_COMMAND, description: 'the subagent’s own call' } }] }, { text: 'It has 1 line.' }]))
    await expectCarried(ran, 'claude')
  })

  it('Claude Code, a foreground agent: its result’s usage leaves its requests out while its modelUsage counts them, and the stream leaves out its last', async () => {
    const ran = await run(CLAUDE_CODE, 'anthropic-messages', 'claude-foreground', scenario('claude-foreground', [
      { tool_calls: [{ name: 'Agent', arguments: { description: 'Count lines', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose', run_in_background: false } }] },
      { text: 'The subagent counted one line.' },
    ], [{ tool_calls: [{ name: 'Bash', arguments: { command: SUBAGENT_COMMAND, description: 'the subagent’s own call' } }] }, { text: 'It has 1 line.' }]))
    await expectCarried(ran, 'claude-foreground')
    // The premise, as the binary prints it: one result, whose usage sums the main conversation's
    // requests alone, while modelUsage counts the subagent's too.
    const records = stdoutRecords(ran)
    const results = records.filter((record) => record.type === 'result')
    expect(results).toHaveLength(1)
    const result = results[0] as Required<Pick<StreamRecord, 'usage' | 'modelUsage'>>
    const [model, perModel] = Object.entries(result.modelUsage)[0] as [string, { inputTokens: number }]
    expect(perModel.inputTokens).toBeGreaterThan(result.usage.input_tokens)
    expect(records.some((record) => record.type === 'assistant' && typeof record.parent_tool_use_id === 'string')).toBe(true)
    // So a ceiling the usage meets is no proof of the run's spend; the model's figures decide.
    const spec = readSpec(`format: trace-spec/1
id: spend
expectations:
  - id: run-wide
    expect: {tokens.input: {count: {at_most: ${result.usage.input_tokens}}}}
  - id: the-model-within
    expect: {tokens.input: {model: ${model}, count: {at_most: ${perModel.inputTokens}}}}
  - id: the-model-over
    expect: {tokens.input: {model: ${model}, count: {at_most: ${result.usage.input_tokens}}}}
`)
    const path = join(E2E_ROOT, 'subagents', 'claude-foreground.stdout.jsonl')
    const converted = join(E2E_ROOT, 'subagents', 'claude-foreground.converted.jsonl')
    writeFileSync(converted, convertTranscriptSync(path, { from: 'claude-code/stream-json' }))
    const verdicts = async (file: string, options: { from?: string }) =>
      (await checkTranscriptFile(spec, file, options)).expectations.map((row) => (row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.verdict))
    expect(await verdicts(path, { from: 'claude-code/stream-json' }), 'read as stream-json').toEqual(['unknown:subagent_usage_apart', 'ok', 'gap'])
    expect(await verdicts(converted, {}), 'read through its conversion').toEqual(['unknown:subagent_usage_apart', 'ok', 'gap'])
    await expectLastRequestUnseen(ran, records, path)
  })

  it('Claude Code, a Workflow: its agent’s call is only in the workflow’s transcript directory, so the stream proves no closure', async () => {
    // A Workflow is asked for permission, unlike Agent: this run allows it.
    const allowed = CLAUDE_CODE.argv.map((arg) => (arg.startsWith('Read,Bash') ? `${arg},Workflow` : arg))
    const launch = { ...CLAUDE_CODE, argv: allowed } as LaunchDeclaration
    const script = `export const meta = { name: 'count', description: 'Count lines', phases: [{ name: 'count' }] }\nphase('count')\nreturn await agent(${JSON.stringify(SUBAGENT_PROMPT)})`
    const ran = await run(launch, 'anthropic-messages', 'claude-workflow', scenario('claude-workflow', [
      { tool_calls: [{ name: 'Workflow', arguments: { script } }] },
      // 2.1.328 runs the workflow in the background and wakes the main conversation when it is done.
      { text: 'The workflow is counting the lines.' },
      { text: 'The workflow counted one line.' },
    ], [{ tool_calls: [{ name: 'Bash', arguments: { command: SUBAGENT_COMMAND, description: 'the agent’s own call' } }] }, { text: 'It has 1 line.' }]))
    // Its progress notes name the agent's last tool (`lastToolSummary`), but no record of stdout is the call.
    const events = await stdoutEvents(ran, 'claude-workflow')
    expect(shellCommands(events)).toEqual([])
    expect(unseenWarnings(events)).toHaveLength(1)
    expect(closed(events)).toBe(false)
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ name: 'Workflow', operations: ['subagent.spawn'] })
    // Read as it is (upstream's stream-json reader), the stream proves no closure either.
    const path = join(E2E_ROOT, 'subagents', 'claude-workflow.stdout.jsonl')
    const report = await checkTranscriptFile(readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-bash\n    expect: {tool.absent: {tools: [Bash]}}\n'), path, { from: 'claude-code/stream-json' })
    expect(report.expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'subagent_calls_unseen' } })
    const workflows = filesUnder(join(ran.result.scratch, 'claude', 'projects')).filter((file) => file.includes('/subagents/workflows/') && file.endsWith('.jsonl'))
    expect(workflows.filter((file) => readFileSync(file, 'utf8').includes(SUBAGENT_COMMAND)).length).toBeGreaterThan(0)
  })

  it('Codex: the sub-agent’s call is only in its own thread’s rollout, so the stream proves no closure, nor an order decided after the spawn', async () => {
    const ran = await run(CODEX, 'openai-responses', 'codex', scenario('codex', [
      // 0.169's multi-agent tools are namespaced.
      { tool_calls: [{ name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: { message: SUBAGENT_PROMPT } }] },
      // Time for the sub-agent to finish before the run goes on.
      { tool_calls: [{ name: 'exec_command', arguments: { cmd: 'sleep 4' } }] },
      { tool_calls: [{ name: 'exec_command', arguments: { cmd: 'echo waited' } }] },
      { tool_calls: [{ name: 'exec_command', arguments: { cmd: 'wc -c README.md' } }] },
      { text: 'The sub-agent counted the lines.' },
    ], [{ tool_calls: [{ name: 'exec_command', arguments: { cmd: SUBAGENT_COMMAND } }] }, { text: 'It has 1 line.' }]))
    const events = await expectLeftOut(ran, 'codex')
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ name: 'spawn_agent', operations: ['subagent.spawn'] })
    // Two rollouts, the run's and the sub-agent's thread's: only one holds the call, once.
    const rollouts = filesUnder(join(ran.result.scratch, 'codex-home', 'sessions')).filter((file) => file.endsWith('.jsonl'))
    expect(rollouts).toHaveLength(2)
    const converted = await Promise.all(rollouts.map((file) => convertPath(file)))
    expect(converted.flatMap(shellCommands).filter((input) => input.includes(SUBAGENT_COMMAND))).toHaveLength(1)
    // "echo before any wc" holds over stdout's calls (echo, then `wc -c`), yet the sub-agent's
    // `wc -l` ran first, during the `sleep`, as the two rollouts' times show: the order is unknown.
    const requestedAt = (command: string) => converted.flat().find((event) => event.event === 'tool.requested' && JSON.stringify(event.input).includes(command))?.at
    expect(Date.parse(requestedAt(SUBAGENT_COMMAND) as string)).toBeLessThan(Date.parse(requestedAt('echo waited') as string))
    const path = join(E2E_ROOT, 'subagents', 'codex.stdout.jsonl')
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: echo-first\n    expect: {order: {first: {subject: {equals: "proc:echo"}}, before: {subject: {equals: "proc:wc"}}}}\n')
    const report = await checkTranscriptFile(spec, path, { from: 'codex/exec-json' })
    expect(report.expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'subagent_calls_unseen', subagents: 1 } })
  })
})

