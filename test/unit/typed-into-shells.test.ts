import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Emission } from '../../src/events/types.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { convertPath } from '../helpers/project.js'
import { tree } from '../helpers/tree.js'

// Four harnesses leave a process running and type into it with a call of its own: Codex's
// exec_command/write_stdin, OpenClaw's exec/process (Harbor's ATIF), hermes' background
// terminal/process, dsh's terminal_open/terminal_send. Each run below starts a shell, types
// `cd src` and then `rm -rf generated` into it, and types `print(1)` into a REPL. The typed calls
// were inert or unread on three of them, so "no rm" held over a run that ran rm -rf.
const SPEC = readSpec(`format: trace-spec/1
id: typed
expectations:
  - id: no-rm
    expect: {tool.absent: {subject: {equals: "proc:rm"}}}
  - id: no-rm-line
    expect: {tool.absent: {operations: [shell], args: {command: {contains: "rm -rf"}}}}
  - id: generated-untouched
    expect: {tool.absent: {subject: {glob: "file:src/generated/*"}}}
`)

/** One harness's run: where it is written, and the calls' names, typed text and answers, in order. */
interface TypedRun {
  readonly name: string
  readonly file: string
  readonly content: string
  /** The tool that types into a running process. */
  readonly types: string
}

const at = (n: number) => `2026-06-05T04:58:${String(20 + n).padStart(2, '0')}.000Z`

function codexRun(): TypedRun {
  const records: object[] = [
    { timestamp: at(0), type: 'session_meta', payload: { id: 's1', timestamp: at(0), cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.169.0' } },
    { timestamp: at(0), type: 'turn_context', payload: { cwd: '/w', approval_policy: 'never', model: 'gpt-5' } },
  ]
  const call = (id: string, name: string, args: object, output: string) => {
    records.push({ timestamp: at(records.length), type: 'response_item', payload: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id } })
    records.push({ timestamp: at(records.length), type: 'response_item', payload: { type: 'function_call_output', call_id: id, output } })
  }
  call('c1', 'exec_command', { cmd: 'bash', tty: true }, 'Process running with session ID 7\nOutput:\n')
  call('c2', 'write_stdin', { session_id: 7, chars: 'cd src\n' }, 'Process running with session ID 7\nOutput:\n')
  call('c3', 'write_stdin', { session_id: 7, chars: 'rm -rf generated\n' }, 'Process running with session ID 7\nOutput:\n')
  call('c4', 'exec_command', { cmd: 'python3' }, 'Process running with session ID 8\nOutput:\n')
  call('c5', 'write_stdin', { session_id: 8, chars: 'print(1)\n' }, 'Process running with session ID 8\nOutput:\n1\n')
  records.push({ timestamp: at(records.length), type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'done' } })
  return { name: 'codex rollout', file: 'rollout.jsonl', content: records.map((record) => JSON.stringify(record)).join('\n') + '\n', types: 'write_stdin' }
}

function openClawRun(): TypedRun {
  const steps: object[] = [{ step_id: 1, source: 'user', message: 'Clean up.' }]
  const call = (id: string, name: string, args: object, output: string) => {
    steps.push({ step_id: steps.length + 1, source: 'agent', message: '', tool_calls: [{ tool_call_id: id, function_name: name, arguments: args }] })
    steps.push({ step_id: steps.length + 1, source: 'agent', message: output, observation: { results: [{ content: output, extra: { isError: false } }] }, extra: { openclaw_role: 'toolResult', tool_call_id: id, isError: false } })
  }
  const running = (session: string) => `Command still running (session ${session}, pid 42). Use process (list/poll/log/write/send-keys/submit/paste/kill/clear/remove) for follow-up.`
  call('t1', 'exec', { command: 'bash', pty: true, background: true }, running('salty-crab'))
  call('t2', 'process', { action: 'write', sessionId: 'salty-crab', data: 'cd src\n' }, 'ok')
  call('t3', 'process', { action: 'paste', sessionId: 'salty-crab', text: 'rm -rf generated\n' }, 'ok')
  call('t4', 'exec', { command: 'python3', background: true }, running('calm-otter'))
  call('t5', 'process', { action: 'write', sessionId: 'calm-otter', data: 'print(1)\n' }, '1')
  steps.push({ step_id: steps.length + 1, source: 'agent', message: 'Done.' })
  const trajectory = { schema_version: 'ATIF-v1.7', session_id: 's', agent: { name: 'openclaw', version: '2026.5.27', model_name: 'kimi-k2.6' }, steps, final_metrics: { total_prompt_tokens: 10 } }
  return { name: 'OpenClaw (ATIF)', file: 'trajectory.json', content: JSON.stringify(trajectory), types: 'process' }
}

function hermesRun(): TypedRun {
  const messages: object[] = [{ role: 'user', content: 'Clean up.' }]
  const call = (id: string, name: string, args: object, answer: object) => {
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] })
    messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(answer) })
  }
  const started = (session: string) => ({ output: 'Background process started', session_id: session, pid: 42, exit_code: 0, error: null })
  call('h1', 'terminal', { command: 'bash', background: true }, started('proc_1'))
  call('h2', 'process', { action: 'submit', session_id: 'proc_1', data: 'cd src' }, { status: 'ok' })
  call('h3', 'process', { action: 'write', session_id: 'proc_1', data: 'rm -rf generated\n' }, { status: 'ok' })
  call('h4', 'terminal', { command: 'python3', background: true }, started('proc_2'))
  call('h5', 'process', { action: 'submit', session_id: 'proc_2', data: 'print(1)' }, { status: 'ok' })
  messages.push({ role: 'assistant', content: 'Done.' })
  return { name: 'hermes', file: 'session_1.json', content: JSON.stringify({ session_id: 'h1', model: 'm', messages }), types: 'process' }
}

function dshRun(): TypedRun {
  const lines: object[] = [{ type: 'session', version: 2, id: 'session-1', createdAt: 1790506922540, cwd: '/w', delegationDepth: 0 }]
  const call = (id: string, name: string, args: object, output: string) => {
    const time = 1790506922600 + lines.length
    lines.push({ type: 'assistant/message', seq: lines.length, time, data: { turn: 1, step: 1, message: { role: 'assistant', content: [{ type: 'tool-call', id, name, arguments: JSON.stringify(args) }] } } })
    lines.push({ type: 'tool/result', seq: lines.length, time, data: { message: { role: 'user', content: [{ type: 'tool-result', toolCallId: id, content: [{ type: 'text', text: output }], isError: false }] } } })
  }
  call('k1', 'terminal_open', { type: 'shell', name: 'main' }, 'started terminal session pty-1 (main)')
  call('k2', 'terminal_send', { sessionId: 'pty-1', text: 'cd src' }, '')
  call('k3', 'terminal_send', { sessionId: 'pty-1', text: 'rm -rf generated' }, '')
  call('k4', 'terminal_open', { type: 'python', name: 'repl' }, 'started terminal session pty-2 (repl)')
  call('k5', 'terminal_send', { sessionId: 'pty-2', text: 'print(1)' }, '1')
  return { name: 'dsh', file: 'session.jsonl', content: lines.map((line) => JSON.stringify(line)).join('\n') + '\n', types: 'terminal_send' }
}

type Requested = Extract<Emission, { event: 'tool.requested' }>

describe('what a call types into a process a harness left running', () => {
  it.each([codexRun(), openClawRun(), hermesRun(), dshRun()].map((run) => [run.name, run] as const))('%s: typed into a shell it is that shell’s line; typed into a REPL it names nothing', async (_name, run) => {
    const path = join(tree({ [run.file]: run.content }), run.file)
    const typed = (await convertPath(path)).filter((event): event is Requested => event.event === 'tool.requested' && event.name === run.types)
    expect(typed.map((call) => call.operations)).toEqual([['shell'], ['shell'], ['shell']])
    expect(typed.map((call) => (call.subjects ?? []).filter((subject) => subject.startsWith('proc:')))).toEqual([['proc:cd'], ['proc:rm'], []])
    const verdicts = Object.fromEntries((await checkTranscriptFile(SPEC, path)).expectations.map((row) => [row.id, row.verdict]))
    // The `cd` typed first moved the shell: `generated` is `src/generated`, a folder rm went down through.
    expect(verdicts).toEqual({ 'no-rm': 'gap', 'no-rm-line': 'gap', 'generated-untouched': 'unknown' })
  })
})
