import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TranscriptError } from '../errors.js'
import type { Emission } from '../../src/events/types.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'

const trajectory = (version: string, steps: unknown[], extra: object = {}, agent: object = { name: 'a', version: '1', model_name: 'm' }) =>
  JSON.stringify({ schema_version: version, session_id: 's', agent, steps, ...extra }, null, 2)

const NO_SHELL = readSpec(`format: trace-spec/1
id: no-shell
expectations:
  - id: no-shell
    expect:
      tool.absent:
        operations: [shell]
`)

type Requested = Extract<Emission, { event: 'tool.requested' }>
const requested = (events: Emission[]): Requested[] => events.filter((event): event is Requested => event.event === 'tool.requested')

/** The shape Harbor's claude-code converter writes: Claude's own tool names and inputs, results by source_call_id. */
const claudeCodeRun = (agentName: string) =>
  trajectory(
    'ATIF-v1.6',
    [
      { step_id: 1, source: 'user', message: 'Fix the failing test.' },
      {
        step_id: 2,
        source: 'agent',
        message: 'Running the suite.',
        tool_calls: [
          { tool_call_id: 'toolu_1', function_name: 'Bash', arguments: { command: 'pytest -q', description: 'run the tests' } },
          { tool_call_id: 'toolu_2', function_name: 'Edit', arguments: { file_path: '/app/calc.py', old_string: 'a-b', new_string: 'a+b' } },
          { tool_call_id: 'toolu_3', function_name: 'Write', arguments: { file_path: '/app/NOTES.md', content: 'done' } },
        ],
        observation: { results: [{ source_call_id: 'toolu_1', content: '1 failed' }, { source_call_id: 'toolu_2', content: 'ok' }, { source_call_id: 'toolu_3', content: 'ok' }] },
      },
    ],
    { final_metrics: { total_prompt_tokens: 10, total_completion_tokens: 2 } },
    { name: agentName, version: '2.1.3', model_name: 'claude-sonnet-4-5' },
  )

describe('atif-json and terminus-atif-json', () => {
  it('reads v1.0 to v1.7 without drift; a later v1.x is read with a version_drift warning naming it; ATIF-v2 is refused', async () => {
    for (const minor of [0, 5, 7]) {
      const root = tree({ 't.json': trajectory(`ATIF-v1.${minor}`, [{ step_id: 1, source: 'user', message: 'hi' }]) })
      expect(names(await convertPath(join(root, 't.json')))).toEqual(['session.started', 'injection'])
    }
    const later = tree({ 't.json': trajectory('ATIF-v1.8', [{ step_id: 1, source: 'user', message: 'hi' }, { step_id: 2, source: 'critic', message: 'hm' }]) })
    const events = await convertPath(join(later, 't.json'))
    expect(names(events)).toEqual(['session.started', 'injection', 'opaque', 'warning'])
    expect(events[3]).toMatchObject({ code: 'version_drift' })
    expect((events[3] as { message: string }).message).toContain('ATIF-v1.8')
    expect((events[3] as { message: string }).message).toContain('step/critic (1)')
    const root = tree({ 't.json': trajectory('ATIF-v2.0', []) })
    await expect(convertPath(join(root, 't.json'), { from: 'atif-json' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_UNSUPPORTED_VERSION', line: 1 })
  })

  it('validator failures are warnings; an unknown step source is opaque at its line; a result with no source_call_id answers no call: it is observation text', async () => {
    const root = tree({
      't.json': trajectory(
        'ATIF-v1.6',
        [
          { step_id: 1, source: 'agent', message: 'x', tool_calls: [{ tool_call_id: 'k', function_name: 'bash_command', arguments: { keystrokes: 'ls -la\n' } }], observation: { results: [{ content: [{ type: 'text', text: 'a b' }] }] } },
          { step_id: 3, source: 'robot', message: 'y' },
        ],
        {},
        { name: 'terminus-2', version: '2.0.0' },
      ),
    })
    const events = await convertPath(join(root, 't.json'))
    expect(names(events)).toEqual(['session.started', 'text', 'tool.requested', 'injection', 'warning', 'opaque'])
    expect(events[2]).toMatchObject({ operations: ['shell'], subjects: ['proc:ls'] })
    expect(events[3]).toEqual({ event: 'injection', text: 'a b', origin: 'observation' })
    expect(events.some((event) => event.event === 'tool.result')).toBe(false)
    expect(events[4]).toMatchObject({ code: 'atif-step-id' })
    expect(events[5]).toMatchObject({ vendor_type: 'step', vendor_subtype: 'robot', source_line: 35 })
  })

  it('the false pass of issue 11: a Harbor-converted Claude Code run classifies Bash/Edit/Write as Claude Code does, so "no shell" gaps', async () => {
    const root = tree({ 't.json': claudeCodeRun('claude-code') })
    const events = await convertPath(join(root, 't.json'))
    expect(requested(events).map((call) => [call.name, call.operations])).toEqual([
      ['Bash', ['shell']],
      ['Edit', ['file.edit']],
      ['Write', ['file.write']],
    ])
    expect(requested(events)[0]?.subjects).toEqual(['proc:pytest'])
    expect(events.filter((event) => event.event === 'warning')).toEqual([])
    const report = await checkTranscriptFile(NO_SHELL, join(root, 't.json'))
    expect(report.expectations[0]?.verdict).toBe('gap')
  })

  it('an agent nobody named is classified by the generic table, and each tool it does not know is reported once as unclassified', async () => {
    const root = tree({ 't.json': claudeCodeRun('house-agent') })
    const events = await convertPath(join(root, 't.json'))
    expect(requested(events).map((call) => call.operations)).toEqual([[], [], []])
    const warnings = events.filter((event): event is Extract<Emission, { event: 'warning' }> => event.event === 'warning')
    expect(warnings.map((warning) => [warning.code, warning.message.slice(0, 13)])).toEqual([
      ['unclassified_tool', 'tool "Bash" i'],
      ['unclassified_tool', 'tool "Edit" i'],
      ['unclassified_tool', 'tool "Write" '],
    ])
  })

  it.each([
    ['codex', 'exec_command', { cmd: 'cargo test' }, 'proc:cargo'],
    ['mini-swe-agent', 'bash', { command: 'python -m pytest' }, 'proc:python'],
    ['openhands', 'execute_bash', { command: 'npm test', security_risk: 'LOW' }, 'proc:npm'],
    ['gemini-cli', 'run_shell_command', { command: 'go test ./...' }, 'proc:go'],
  ])("%s's shell tool (%s) is classified shell by its own table", async (agent, tool, input, subject) => {
    const root = tree({ 't.json': trajectory('ATIF-v1.5', [{ step_id: 1, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'c', function_name: tool, arguments: input }] }], {}, { name: agent, version: '1' }) })
    const [call] = requested(await convertPath(join(root, 't.json')))
    expect(call).toMatchObject({ name: tool, operations: ['shell'] })
    expect(call?.subjects).toContain(subject)
  })

  it("terminus-2's raw-content steps hold their commands in the message: each is read as the bash_command it ran", async () => {
    const answer = JSON.stringify({ analysis: 'a', plan: 'p', commands: [{ keystrokes: 'mkdir d\n', duration: 0.1 }, { keystrokes: 'cat d/x\n', duration: 0.1 }], task_complete: false })
    const root = tree({
      't.json': trajectory(
        'ATIF-v1.4',
        [
          { step_id: 1, source: 'user', message: 'go' },
          { step_id: 2, source: 'agent', message: answer, observation: { results: [{ content: 'New Terminal Output:\n$ mkdir d' }] } },
          { step_id: 3, source: 'agent', message: 'not json {' },
        ],
        {},
        { name: 'terminus-2', version: '2.0.0' },
      ),
    })
    const calls = requested(await convertPath(join(root, 't.json')))
    expect(calls.map((call) => [call.call_id, call.name, call.operations, call.subjects])).toEqual([
      ['step-2-action-1', 'bash_command', ['shell'], ['proc:mkdir', 'file:d']],
      ['step-2-action-2', 'bash_command', ['shell'], ['proc:cat', 'file:d/x']],
    ])
  })

  it('OpenHands without function calling writes CodeAct text: each <function=…> block of an agent step is read as its call', async () => {
    const message = "<function=execute_bash>\n<parameter=command>cat > /app/hello.txt << 'EOF'\nhi\nEOF\n</parameter>\n<parameter=security_risk>LOW</parameter>\n</function>"
    const root = tree({
      't.json': trajectory(
        'ATIF-v1.5',
        [
          { step_id: 1, source: 'user', message: 'example: <function=execute_bash><parameter=command>ls</parameter></function>' },
          { step_id: 2, source: 'agent', message, observation: { results: [{ content: '[The command completed with exit code 0.]' }] } },
          { step_id: 3, source: 'agent', message: '<function=finish>\n<parameter=message>done</parameter>\n</function>' },
        ],
        {},
        { name: 'openhands', version: '1.1.0' },
      ),
    })
    const events = await convertPath(join(root, 't.json'))
    expect(requested(events).map((call) => [call.call_id, call.name, call.operations])).toEqual([
      ['step-2-action-1', 'execute_bash', ['shell']],
      ['step-3-action-1', 'finish', []],
    ])
    expect(requested(events)[0]?.input).toEqual({ command: "cat > /app/hello.txt << 'EOF'\nhi\nEOF\n", security_risk: 'LOW' })
    expect(events.filter((event) => event.event === 'warning')).toEqual([])
  })

  it('a tool call without tool_call_id is still a call: it gets a stable id, with a warning', async () => {
    const root = tree({ 't.json': trajectory('ATIF-v1.6', [{ step_id: 1, source: 'agent', message: '', tool_calls: [{ function_name: 'bash', arguments: { command: 'ls' } }] }]) })
    const events = await convertPath(join(root, 't.json'))
    expect(names(events)).toEqual(['session.started', 'warning', 'tool.requested'])
    expect(events[1]).toMatchObject({ code: 'atif-call-id' })
    expect(events[2]).toMatchObject({ call_id: 'step-1-call-1', operations: ['shell'] })
  })

  it('a copied-context step (is_copied_context) adds no call and no usage: the previous segment recorded them', async () => {
    const root = tree({
      't.json': trajectory('ATIF-v1.7', [
        { step_id: 1, source: 'agent', message: 'old', is_copied_context: true, tool_calls: [{ tool_call_id: 'c0', function_name: 'bash', arguments: { command: 'ls' } }], metrics: { prompt_tokens: 5 } },
        { step_id: 2, source: 'agent', message: 'new', tool_calls: [{ tool_call_id: 'c1', function_name: 'bash', arguments: { command: 'pwd' } }] },
      ]),
    })
    const events = await convertPath(join(root, 't.json'))
    expect(names(events)).toEqual(['session.started', 'text', 'tool.requested'])
    expect(events[2]).toMatchObject({ call_id: 'c1' })
  })

  it("v1.7 embedded subagents: their calls are the run's calls, classified by the subagent's own agent table", async () => {
    const root = tree({
      't.json': trajectory(
        'ATIF-v1.7',
        [{ step_id: 1, source: 'agent', message: 'delegating', observation: { results: [{ subagent_trajectory_ref: [{ trajectory_id: 'sub-1' }] }] } }],
        {
          subagent_trajectories: [
            { schema_version: 'ATIF-v1.7', trajectory_id: 'sub-1', agent: { name: 'claude-code', version: '2.1.3' }, steps: [{ step_id: 1, source: 'agent', message: '', tool_calls: [{ tool_call_id: 's1', function_name: 'Bash', arguments: { command: 'make' } }] }] },
          ],
        },
        { name: 'orchestrator', version: '1' },
      ),
    })
    const events = await convertPath(join(root, 't.json'))
    expect(names(events)).toEqual(['session.started', 'text', 'tool.requested'])
    expect(events[2]).toMatchObject({ call_id: 's1', operations: ['shell'] })
  })

  it('a system step of v1.2+ gives its observation as injected text; a trajectory continued in another file neither closes nor ends the run', async () => {
    const root = tree({
      't.json': trajectory(
        'ATIF-v1.2',
        [{ step_id: 1, source: 'system', message: 'Performed context summarization.', observation: { results: [{ content: 'Summary: x', subagent_trajectory_ref: [{ session_id: 's2', trajectory_path: 'trajectory.summary.json' }] }] } }],
        { final_metrics: { total_prompt_tokens: 1 }, continued_trajectory_ref: 'trajectory.cont-1.json' },
      ),
    })
    const events = await convertPath(join(root, 't.json'))
    // No session.ended: its final_metrics are the segment's, not the run's.
    expect(names(events)).toEqual(['session.started', 'injection', 'injection', 'warning'])
    expect(events[2]).toEqual({ event: 'injection', text: 'Summary: x', origin: 'observation' })
  })

  it('a subagent whose trajectory is another file: its calls are not here, so the document proves no closure; an embedded one keeps it', async () => {
    const delegating = (ref: Record<string, unknown>) => [{ step_id: 1, source: 'agent', message: 'delegating', tool_calls: [{ tool_call_id: 'c1', function_name: 'delegate', arguments: { task: 'fix' } }], observation: { results: [{ source_call_id: 'c1', content: 'done', subagent_trajectory_ref: [ref] }] } }]
    const root = tree({
      'external.json': trajectory('ATIF-v1.7', delegating({ session_id: 'sub-1', trajectory_path: 'trajectory.sub-1.json' }), { final_metrics: { total_prompt_tokens: 1 } }),
      'embedded.json': trajectory('ATIF-v1.7', delegating({ trajectory_id: 'sub-1' }), {
        final_metrics: { total_prompt_tokens: 1 },
        subagent_trajectories: [{ schema_version: 'ATIF-v1.7', trajectory_id: 'sub-1', agent: { name: 'claude-code', version: '2.1.3' }, steps: [{ step_id: 1, source: 'agent', message: '', tool_calls: [{ tool_call_id: 's1', function_name: 'Bash', arguments: { command: 'make' } }] }] }],
      }),
    })
    const external = await convertPath(join(root, 'external.json'))
    const unseen = (events: Awaited<ReturnType<typeof convertPath>>) => events.filter((event) => event.event === 'warning' && event.code === 'subagent_calls_unseen')
    expect(unseen(external)).toHaveLength(1)
    expect((unseen(external)[0] as { message: string }).message).toContain('sub-1')
    expect(external.some((event) => event.event === 'stream.closed')).toBe(false)
    const embedded = await convertPath(join(root, 'embedded.json'))
    expect(unseen(embedded)).toEqual([])
    expect(embedded.at(-1)?.event).toBe('stream.closed')
  })

  it('a terminus trial record: a failed trial ends in error and closes as such', async () => {
    const root = tree({ 'task.json': JSON.stringify({ task: 'hello-world', rewards: {}, reward: null, failed: true, error: 'AgentTimeoutError', steps: [{ step_id: 1, source: 'user', message: 'go' }] }) })
    const events = await convertPath(root)
    expect(names(events)).toEqual(['session.started', 'injection', 'session.ended', 'stream.closed'])
    expect(events[0]).toMatchObject({ adapter: 'terminus' })
    expect(events[2]).toMatchObject({ is_error: true, subtype: 'AgentTimeoutError' })
    expect(events[3]).toMatchObject({ reason: 'error' })
  })

  it('OpenClaw (Harbor-converted): exec is a shell; a result step naming its call in extra.tool_call_id is that call’s result, not agent text', async () => {
    const root = tree({
      'trajectory.json': trajectory(
        'ATIF-v1.7',
        [
          { step_id: 1, source: 'user', message: 'Run the tests.' },
          { step_id: 2, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'tool_1', function_name: 'exec', arguments: { command: 'pytest -q' } }], metrics: { prompt_tokens: 5, completion_tokens: 2 } },
          { step_id: 3, source: 'agent', message: '1 failed', observation: { results: [{ content: '1 failed', extra: { isError: true } }] }, extra: { openclaw_role: 'toolResult', tool_call_id: 'tool_1' } },
          // A result-shaped step naming no earlier call stays what the RFC says: context the agent was shown.
          { step_id: 4, source: 'agent', message: 'seen', observation: { results: [{ content: 'seen' }] }, extra: { tool_call_id: 'tool_9' } },
          { step_id: 5, source: 'agent', message: 'One test fails.', metrics: { prompt_tokens: 9, completion_tokens: 3 } },
        ],
        { final_metrics: { total_prompt_tokens: 14 } },
        { name: 'openclaw', version: '2026.5.27', model_name: 'kimi-k2.6' },
      ),
    })
    const events = await convertPath(join(root, 'trajectory.json'))
    expect(names(events)).toEqual(['session.started', 'injection', 'tool.requested', 'usage', 'tool.result', 'text', 'injection', 'text', 'usage', 'session.ended', 'stream.closed'])
    expect(events[2]).toMatchObject({ call_id: 'tool_1', operations: ['shell'], subjects: ['proc:pytest'] })
    expect(events[4]).toMatchObject({ call_id: 'tool_1', is_error: true })
    expect(events.filter((event) => event.event === 'warning')).toEqual([])
  })

  it('OpenClaw (Harbor-converted): an exec that exited nonzero failed, whatever its isError flag says; its exit code is kept', async () => {
    const execResult = (step: number, call: string, extra: object) => ({
      step_id: step,
      source: 'agent',
      message: 'out',
      observation: { results: [{ content: 'out', extra: { isError: false } }] },
      extra: { openclaw_role: 'toolResult', tool_call_id: call, isError: false, ...extra },
    })
    const root = tree({
      'trajectory.json': trajectory(
        'ATIF-v1.7',
        [
          { step_id: 1, source: 'user', message: 'Run the tests.' },
          {
            step_id: 2,
            source: 'agent',
            message: '',
            tool_calls: ['pytest -q', 'gws --help', 'ls', 'npm run dev'].map((command, index) => ({ tool_call_id: `tool_${index + 1}`, function_name: 'exec', arguments: { command } })),
          },
          execResult(3, 'tool_1', { exec_exit_code: 1, exec_status: 'completed' }),
          execResult(4, 'tool_2', { exec_exit_code: 127, exec_status: 'failed' }),
          execResult(5, 'tool_3', { exec_exit_code: 0, exec_status: 'completed' }),
          // Still running: nothing says yet whether it failed, and the flag stands.
          execResult(6, 'tool_4', { exec_exit_code: null, exec_status: 'running' }),
        ],
        {},
        { name: 'openclaw', version: '2026.5.27', model_name: 'kimi-k2.6' },
      ),
    })
    const results = (await convertPath(join(root, 'trajectory.json'))).filter((event) => event.event === 'tool.result')
    expect(results.map((event) => [event.call_id, event.is_error, event.exit_code])).toEqual([
      ['tool_1', true, 1],
      ['tool_2', true, 127],
      ['tool_3', false, 0],
      ['tool_4', false, null],
    ])
  })

  it('a document that is not JSON is refused with its file and line: no tolerance', async () => {
    const root = tree({ 'bad.json': '{\n  "schema_version": "ATIF-v1.4",\n  "steps": [,]\n}\n' })
    const error = await convertPath(join(root, 'bad.json'), { from: 'atif-json' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TranscriptError)
    expect(error).toMatchObject({ code: 'VH_TRANSCRIPT_NOT_JSON', line: 3 })
  })
})

describe('token counts: what prompt_tokens holds', () => {
  type Usage = Extract<Emission, { event: 'usage' }>['usage']
  const usages = (events: Emission[]): Usage[] => events.flatMap((event) => (event.event === 'usage' ? [event.usage] : event.event === 'session.ended' && event.usage ? [event.usage] : []))
  const wild = (name: string) => join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'wild', 'atif', name)
  const TOKENS = (ceiling: number) => readSpec(`format: trace-spec/1\nid: spend\nexpectations:\n  - id: input\n    expect: {tokens.input: {count: {at_most: ${ceiling}}}}\n`)

  it("reads Harbor's OpenClaw prompt_tokens as the uncached input: its converter leaves the cache reads out", async () => {
    // v1.7-openclaw-clawbench-add-tests.json: final_metrics 2,555 prompt and 108,032 cached tokens;
    // its converter writes OpenClaw's usage.input and cacheRead there. Read by the RFC, its input
    // was 0, and "input tokens at most 1,000" held.
    const path = wild('v1.7-openclaw-clawbench-add-tests.json')
    const all = usages(await convertPath(path))
    expect(all[all.length - 1]).toMatchObject({ input_tokens: 2555, cache_read_input_tokens: 108032 })
    expect(all[0]).toMatchObject({ input_tokens: 413, cache_read_input_tokens: 14848 })
    expect((await checkTranscriptFile(TOKENS(1000), path)).expectations[0]).toMatchObject({ verdict: 'gap', outcome: { note: 'input_tokens = 2555, at most 1000' } })
  })

  it('keeps the RFC reading where the producer follows it, and reads the figures as they stand where one counts more cache than prompt', async () => {
    const metrics = (prompt: number, cached: number) => ({ step_id: 2, source: 'agent', message: 'ok', metrics: { prompt_tokens: prompt, completion_tokens: 5, cached_tokens: cached } })
    const run = (agent: string, ...steps: object[]) => join(tree({ 't.json': trajectory('ATIF-v1.6', [{ step_id: 1, source: 'user', message: 'hi' }, ...steps.map((step, index) => ({ ...step, step_id: index + 2 }))], {}, { name: agent, version: '1', model_name: 'm' }) }), 't.json')
    // terminus-2 (LiteLLM's prompt_tokens include the cached part): 900 prompt, 300 of them cached.
    expect(usages(await convertPath(run('terminus-2', metrics(900, 300))))[0]).toMatchObject({ input_tokens: 600, cache_read_input_tokens: 300 })
    // An agent nobody knows whose one step counts 5,000 cached against 40 prompt tokens: its prompt leaves the cache out, in every step.
    expect(usages(await convertPath(run('custom', metrics(900, 300), metrics(40, 5000)))).map((usage) => usage.input_tokens)).toEqual([900, 40])
  })
})
