import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { censusToText, inspectTranscriptFile } from '../../src/trace/census.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { classifyCall } from '../shared/operations.js'
import { CODEX_TOOL_OPERATIONS } from './operations.js'
import { convertLines, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'

const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`
const meta = { timestamp: at(0), type: 'session_meta', payload: { id: 'th', cwd: '/w', cli_version: '0.169.0' } }
const turnContext = { timestamp: at(0), type: 'turn_context', payload: { model: 'gpt-x' } }
const tokens = (input: number, cached: number, output: number) => ({
  timestamp: at(5),
  type: 'event_msg',
  payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0 } } },
})

describe('codex/rollout-jsonl', () => {
  it('decodes exec_command arguments into an object: shell, proc:cat, file:note.txt', async () => {
    const events = await convertLines('codex/rollout-jsonl', [
      meta,
      turnContext,
      { timestamp: at(1), type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"cat note.txt"}', call_id: 'c1' } },
      { timestamp: at(2), type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'Process exited with code 1\nOutput:\nno such file' } },
      { timestamp: at(3), type: 'response_item', payload: { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch', call_id: 'c2' } },
    ])
    expect(events[0]).toMatchObject({ event: 'session.started', model: 'gpt-x', harness_version: '0.169.0', cwd: '/w', at: at(0) })
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ call_id: 'c1', input: { cmd: 'cat note.txt' }, operations: ['shell'], subjects: ['proc:cat', 'file:note.txt'] })
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ call_id: 'c1', exit_code: 1, is_error: true })
    expect(events.filter((event) => event.event === 'tool.requested')[1]).toMatchObject({ name: 'apply_patch', operations: ['file.edit'], subjects: ['file:src/a.ts'] })
  })

  it('characters written to a shell exec_command left running are read as its command lines; to anything else, as input', async () => {
    const call = (id: string, name: string, args: object) => ({ timestamp: at(1), type: 'response_item', payload: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id } })
    const output = (id: string, text: string) => ({ timestamp: at(2), type: 'response_item', payload: { type: 'function_call_output', call_id: id, output: text } })
    // As 0.169 wrote them (Chunk ID and wall time vary).
    const running = (session: number) => `Chunk ID: fb0421\nWall time: 0.5016 seconds\nProcess running with session ID ${session}\nOriginal token count: 47\nOutput:\n$ `
    const events = await convertLines('codex/rollout-jsonl', [
      meta,
      turnContext,
      call('c1', 'exec_command', { cmd: 'bash', tty: true, yield_time_ms: 500 }),
      output('c1', running(44655)),
      call('c2', 'write_stdin', { session_id: 44655, chars: 'rm scratch.tmp; echo gone\n' }),
      call('c3', 'exec_command', { cmd: 'python3 -i', tty: true }),
      output('c3', running(1234)),
      call('c4', 'write_stdin', { session_id: 1234, chars: 'print(1)\n' }),
      call('c5', 'write_stdin', { session_id: 999, chars: 'ls\n' }),
    ])
    const subjects = Object.fromEntries(events.flatMap((event) => (event.event === 'tool.requested' ? [[event.call_id, event.subjects ?? []]] : [])))
    expect(subjects).toEqual({ c1: ['proc:bash'], c2: ['proc:rm', 'file:scratch.tmp', 'proc:echo'], c3: ['proc:python3'], c4: [], c5: [] })
  })

  it('the tools 0.169 offers (its request’s tool names in the e2e runs) are all in its table', () => {
    const offered = ['exec_command', 'write_stdin', 'request_user_input', 'view_image', 'spawn_agent', 'send_input', 'wait_agent', 'close_agent', 'get_goal', 'create_goal', 'update_goal', 'web_search']
    expect(offered.filter((tool) => !classifyCall(CODEX_TOOL_OPERATIONS, tool, {}).known)).toEqual([])
  })

  it('usage is per request: cumulative token_count totals become differences; a repeated total is no new request', async () => {
    const events = await convertLines('codex/rollout-jsonl', [meta, turnContext, tokens(100, 40, 10), tokens(100, 40, 10), tokens(250, 140, 25), { timestamp: at(6), type: 'event_msg', payload: { type: 'task_complete', duration_ms: 900 } }])
    const usage = events.filter((event) => event.event === 'usage')
    expect(usage.map((event) => event.event === 'usage' && [event.usage.input_tokens, event.usage.cache_read_input_tokens, event.usage.output_tokens])).toEqual([
      [60, 40, 10],
      [50, 100, 15],
    ])
    // The repeated report and the turn_context are records the vocabulary knows: read, nothing opaque.
    expect(events.filter((event) => event.event === 'opaque').length).toBe(0)
    expect(events.at(-1)).toMatchObject({ event: 'session.ended', num_turns: null, duration_ms: 900, usage: { input_tokens: 110, output_tokens: 25 } })
    // Written at the stream's end, the run's end carries the time of the task_complete it stands for, so a
    // text written after that turn (a later turn cut short) is not read as coming before the run ended.
    expect(events.at(-1)?.at).toBe(at(6))
  })

  it('error shapes: a turn aborted, an error event, an unknown record type', async () => {
    const events = await convertLines('codex/rollout-jsonl', [
      meta,
      { timestamp: at(1), type: 'event_msg', payload: { type: 'task_started' } },
      { timestamp: at(2), type: 'event_msg', payload: { type: 'error', message: 'stream disconnected' } },
      { timestamp: at(3), type: 'event_msg', payload: { type: 'turn_aborted', reason: 'interrupted' } },
      { timestamp: at(4), type: 'inter_agent_communication', payload: { type: 'x' } },
    ])
    expect(names(events)).toEqual(['session.started', 'turn.started', 'warning', 'turn.ended', 'opaque'])
    expect(events[3]).toMatchObject({ stop_reason: 'interrupted' })
    expect(events[4]).toMatchObject({ vendor_type: 'inter_agent_communication', vendor_subtype: 'x', source_line: 5 })
  })

  it('the upstream projection keeps metaharness’s own shape: no operations, cumulative usage, echoes kept', async () => {
    const events = await convertLines('codex/rollout-jsonl', [meta, { timestamp: at(1), type: 'event_msg', payload: { type: 'agent_message', message: 'hi' } }, tokens(100, 40, 10)], { seam: { projection: 'upstream' } })
    expect(names(events)).toEqual(['session.started', 'text', 'usage'])
    expect(events[2]).toMatchObject({ usage: { input_tokens: 100, cache_read_input_tokens: 40 } })
  })
})

/** One exec-json turn around `items`, ending with an answer and the turn's completion. */
const execTurn = (items: object[]) =>
  convertLines('codex/exec-json', [
    { type: 'thread.started', thread_id: 'th' },
    { type: 'turn.started' },
    ...items,
    { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: 'Done.' } },
    { type: 'turn.completed', usage: { input_tokens: 5, cached_input_tokens: 0, output_tokens: 1 } },
  ])

describe('codex/exec-json', () => {
  it('a declined command is a refusal and an errored result; turn.failed is a warning and the stream closes as error', async () => {
    const events = await convertLines('codex/exec-json', [
      { type: 'thread.started', thread_id: 'th' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'i1', type: 'command_execution', command: 'rm -rf /', aggregated_output: '', exit_code: null, status: 'declined' } },
      { type: 'item.completed', item: { id: 'i2', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, error: { message: 'boom' }, status: 'failed' } },
      { type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized' } },
    ])
    expect(names(events)).toEqual(['session.started', 'warning', 'turn.started', 'tool.requested', 'warning', 'tool.result', 'tool.requested', 'tool.result', 'warning', 'turn.ended', 'session.ended', 'stream.closed'])
    expect(events[1]).toMatchObject({ code: 'requests_unmarked' })
    // Codex's approval declined it: it never ran, and a floor on calls is not met by it.
    expect(events[4]).toMatchObject({ code: 'approval-denied', message: 'Codex declined call i1' })
    expect(events[5]).toMatchObject({ call_id: 'i1', is_error: true })
    expect(events[6]).toMatchObject({ name: 'mcp__docs__search', input: { q: 'x' }, operations: ['mcp.call'] })
    expect(events[8]).toMatchObject({ code: 'turn-failed', message: 'unexpected status 401 Unauthorized' })
    expect(events[10]).toMatchObject({ is_error: true, num_turns: null })
    expect(events[11]).toMatchObject({ reason: 'error' })
  })

  it('a stream that spawned a sub-agent proves no closure: the sub-agent works in a thread of its own (test/e2e/subagents.test.ts shows it on the real 0.169)', async () => {
    // A collab item as 0.169's exec events write it (CollabToolCallItem: tool, sender and receiver threads, prompt).
    const spawned = await execTurn([{ type: 'item.completed', item: { id: 'a1', type: 'collab_tool_call', tool: 'spawn_agent', sender_thread_id: 'th', receiver_thread_ids: ['th2'], prompt: 'run the tests', agents_states: {}, status: 'completed' } }])
    expect(spawned.find((event) => event.event === 'tool.requested')).toMatchObject({ name: 'spawn_agent', operations: ['subagent.spawn'] })
    expect(spawned.filter((event) => event.event === 'warning')).toMatchObject([{ code: 'requests_unmarked' }, { code: 'subagent_calls_unseen' }])
    expect(spawned.some((event) => event.event === 'stream.closed')).toBe(false)
    const alone = await execTurn([{ type: 'item.completed', item: { id: 'c1', type: 'command_execution', command: 'ls', aggregated_output: '', exit_code: 0, status: 'completed' } }])
    expect(alone.at(-1)).toMatchObject({ event: 'stream.closed', reason: 'completed' })
  })

  it('a stream whose run could have typed into a process proves no closure: write_stdin calls never reach this stdout (test/e2e/shell-subjects.test.ts shows it on the real 0.169)', async () => {
    const command = (id: string, line: string) => ({ type: 'item.started', item: { id, type: 'command_execution', command: line, aggregated_output: '', exit_code: null, status: 'in_progress' } })
    const completed = (started: ReturnType<typeof command>, output: string) => ({ type: 'item.completed', item: { ...started.item, aggregated_output: output, exit_code: 0, status: 'completed' } })
    const unseen = (events: Awaited<ReturnType<typeof execTurn>>) => events.flatMap((event) => (event.event === 'warning' && event.code === 'process_input_unseen' ? [event.message] : []))
    const closed = (events: Awaited<ReturnType<typeof execTurn>>) => events.some((event) => event.event === 'stream.closed')

    // A server left running: it starts, and nothing more of it is written.
    const server = command('item_1', "/bin/bash -lc 'npm run dev'")
    const left = await execTurn([server])
    expect(unseen(left)).toEqual([expect.stringContaining('"/bin/bash -lc \'npm run dev\'") was still running when the stream ended')])
    expect(closed(left)).toBe(false)
    // As 0.169 printed it: a shell that was sent `rm scratch.tmp; exit` completes, its output the terminal's echo.
    const shell = command('item_1', '/bin/bash -lc bash')
    const typed = await execTurn([shell, completed(shell, 'root@vm:/w# rm scratch.tmp; exit\r\nexit\r\n')])
    expect(unseen(typed)).toEqual([expect.stringContaining('"/bin/bash -lc bash") reads what to run from its input')])
    expect(closed(typed)).toBe(false)
    // A command that ends and reads nothing: the stream closes.
    const listed = command('item_1', "/bin/bash -lc 'ls -la'")
    const ended = await execTurn([listed, completed(listed, 'a.txt\n')])
    expect(unseen(ended)).toEqual([])
    expect(ended.at(-1)).toMatchObject({ event: 'stream.closed', reason: 'completed' })

    // The checker and inspect say why an absence is undecided.
    const lines = [{ type: 'thread.started', thread_id: 'th' }, { type: 'turn.started' }, server, { type: 'turn.completed', usage: { input_tokens: 5, cached_input_tokens: 0, output_tokens: 1 } }]
    const path = join(tree({ 'exec.jsonl': lines.map((line) => JSON.stringify(line)).join('\n') }), 'exec.jsonl')
    const report = await checkTranscriptFile(readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-rm\n    expect: {tool.absent: {subject: {equals: "proc:rm"}}}\n'), path)
    expect(report.expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'process_input_unseen', processes: 1 } })
    const census = await inspectTranscriptFile(path)
    expect(census).toMatchObject({ closure: null, processes_unseen: 1 })
    expect(censusToText(census)).toContain('closure      not closed — 1 process(es) could have been sent input this transcript does not show (process_input_unseen)')
  })

  it('file changes name their files; an unknown item type is opaque', async () => {
    const events = await convertLines('codex/exec-json', [
      { type: 'item.started', item: { id: 'f', type: 'file_change', changes: [{ path: 'a.ts', kind: 'update' }], status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'f', type: 'file_change', changes: [{ path: 'a.ts', kind: 'update' }], status: 'completed' } },
      { type: 'item.completed', item: { id: 'p', type: 'plan', text: 'x' } },
    ])
    expect(names(events)).toEqual(['tool.requested', 'tool.result', 'opaque'])
    expect(events[0]).toMatchObject({ operations: ['file.edit'], subjects: ['file:a.ts'] })
    expect(events[2]).toMatchObject({ vendor_type: 'item.completed', vendor_subtype: 'plan' })
  })
})

describe('Codex code mode (`--enable code_mode`, 0.169.0): the commands an exec script ran', () => {
  const DIR = join(import.meta.dirname, '../../test/fixtures/codex-code-mode')
  const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: rm-ran\n    expect: {tool.called: {subject: {glob: "proc:rm"}, count: {at_least: 1}}}\n  - id: no-rm\n    expect: {tool.absent: {subject: {glob: "proc:rm"}}}\n')
  const rows = async (file: string) => (await checkTranscriptFile(spec, join(DIR, file))).expectations.map((row) => [row.id, row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome])

  it('the rollout holds the script and echoes each command it ran, under an id no call has: read as the exec_command call it was, with its result', async () => {
    const events = await convertLines('codex/rollout-jsonl', (await import('node:fs')).readFileSync(join(DIR, 'rollout.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as unknown))
    const calls = events.flatMap((event) => (event.event === 'tool.requested' ? [[event.name, event.input, event.subjects]] : []))
    expect(calls).toEqual([
      ['exec', { input: "const r = await tools.exec_command({cmd: 'rm junk.txt && echo gone'}); text(JSON.stringify(r))" }, []],
      ['exec_command', { cmd: 'rm junk.txt && echo gone' }, ['proc:rm', 'file:junk.txt', 'proc:echo']],
    ])
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ exit_code: 0, is_error: false, content: 'gone\n' })
    // Its other calls (a patch, an MCP tool) are not read: the script is said to call tools this reader may not see.
    expect(events.filter((event) => event.event === 'warning').map((event) => event.event === 'warning' && event.code)).toEqual(['unclassified_tool', 'nested_calls_unseen'])
    expect(await rows('rollout.jsonl')).toEqual([
      ['rm-ran', 'ok'],
      ['no-rm', 'gap'],
    ])
  })

  it('exec --json prints the script’s command as an item of its own, and nothing of the script', async () => {
    expect(await rows('exec.jsonl')).toEqual([
      ['rm-ran', 'ok'],
      ['no-rm', 'gap'],
    ])
  })

  it('outside a script, a command’s echo repeats the call already read', async () => {
    const call = { timestamp: at(1), type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'c1' } }
    const echo = { timestamp: at(2), type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id: 'c1', command: ['/bin/bash', '-lc', 'ls'], exit_code: 0, aggregated_output: 'a\n' } } }
    const stray = { ...echo, payload: { ...echo.payload, item: { ...echo.payload.item, id: 'exec-1' } } }
    const events = await convertLines('codex/rollout-jsonl', [meta, turnContext, { timestamp: at(0), type: 'event_msg', payload: { type: 'task_started' } }, call, echo, stray])
    expect(events.filter((event) => event.event === 'tool.requested')).toHaveLength(1)
  })
})
