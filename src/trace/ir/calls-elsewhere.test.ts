import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nestedCallsUnseenWarning } from '../../events/nested-calls-unseen.js'
import { processInputUnseenWarning } from '../../events/process-input-unseen.js'
import { subagentCallsUnseenWarning } from '../../events/subagent-calls-unseen.js'
import { call, closedRun, result, rowOf, type Event } from '../../../test/helpers/trace.js'

/**
 * An order is decided by the first occurrence of each side in the stream. Calls the stream says
 * it does not hold — a subagent's, those of code a call ran, what a process was sent — ran after
 * the call that started them, and may hold the true first occurrence of either side: an order
 * decided after that call is unknown, never ok or gap.
 */

const shell = (id: string, command: string): Event[] => [call(id, 'Bash', { command }, { operations: ['shell'], subjects: [`proc:${command.split(' ')[0] as string}`] }), result(id)]
const spawn = (id: string): Event[] => [call(id, 'Task', { prompt: 'push the branch' }, { operations: ['subagent.spawn'] }), result(id)]

const stream = (events: Event[]): string => closedRun(events)

const TESTS_BEFORE_PUSH = '{order: {first: {subject: {equals: "proc:npm"}}, before: {subject: {equals: "proc:git"}}}}'

describe('an order over a stream that holds calls made elsewhere', () => {
  it('a subagent spawned before the deciding call: unknown, naming the subagent, not ok', () => {
    const transcript = stream([...spawn('c-1'), subagentCallsUnseenWarning('c-1', 'its own session file'), ...shell('c-2', 'npm test'), ...shell('c-3', 'git push')])
    expect(rowOf(TESTS_BEFORE_PUSH, transcript)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'subagent_calls_unseen', subagents: 1 } })
  })

  it('the same stream without the warning is ok: the warning alone turns it', () => {
    const transcript = stream([...spawn('c-1'), ...shell('c-2', 'npm test'), ...shell('c-3', 'git push')])
    expect(rowOf(TESTS_BEFORE_PUSH, transcript).verdict).toBe('ok')
  })

  it('a gap is overturnable too: the subagent may have run the tests before the push', () => {
    const transcript = stream([...spawn('c-1'), subagentCallsUnseenWarning('c-1', 'its own session file'), ...shell('c-2', 'git push'), ...shell('c-3', 'npm test')])
    expect(rowOf(TESTS_BEFORE_PUSH, transcript)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'subagent_calls_unseen' } })
  })

  it('a subagent spawned after the deciding call changes nothing: its calls came later', () => {
    const holds = stream([...shell('c-1', 'npm test'), ...spawn('c-2'), subagentCallsUnseenWarning('c-2', 'its own session file'), ...shell('c-3', 'git push')])
    expect(rowOf(TESTS_BEFORE_PUSH, holds).verdict).toBe('ok')
    const fails = stream([...shell('c-1', 'git push'), ...spawn('c-2'), subagentCallsUnseenWarning('c-2', 'its own session file'), ...shell('c-3', 'npm test')])
    expect(rowOf(TESTS_BEFORE_PUSH, fails).verdict).toBe('gap')
  })

  it('the spawning call itself decides: its subagent ran after it', () => {
    const transcript = stream([...spawn('c-1'), subagentCallsUnseenWarning('c-1', 'its own session file'), ...shell('c-2', 'git push')])
    expect(rowOf('{order: {first: {operations: [subagent.spawn]}, before: {subject: {equals: "proc:git"}}}}', transcript).verdict).toBe('ok')
  })

  it('code that called tools (Qwen Code’s exec) before the deciding call: unknown', () => {
    const exec = [call('c-1', 'exec', { code: 'await tools.run_shell_command({command: "git push"})' }, { operations: ['shell'] }), result('c-1')]
    const transcript = stream([...exec, nestedCallsUnseenWarning('c-1', 'exec', 'the session file'), ...shell('c-2', 'npm test'), ...shell('c-3', 'git push')])
    expect(rowOf(TESTS_BEFORE_PUSH, transcript)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'nested_calls_unseen', calls: 1 } })
  })

  it('a warning naming a call the stream no longer holds near it (a process still running at the end) is placed at the start', () => {
    // Codex `exec --json` names its still-running processes when the stream ends, far from their calls.
    const transcript = stream([...shell('c-1', 'npm test'), ...shell('c-2', 'git push'), processInputUnseenWarning('item_9', 'bash', 'running', 'the rollout')])
    expect(rowOf(TESTS_BEFORE_PUSH, transcript)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'process_input_unseen', processes: 1 } })
  })

  it('a process warning named at the end, for a call after the deciding one, changes nothing', () => {
    const running = [call('c-3', 'exec_command', { cmd: 'bash' }, { operations: ['shell'], subjects: ['proc:bash'] })]
    const transcript = stream([...shell('c-1', 'npm test'), ...shell('c-2', 'git push'), ...running, processInputUnseenWarning('c-3', 'bash', 'reading', 'the rollout')])
    expect(rowOf(TESTS_BEFORE_PUSH, transcript).verdict).toBe('ok')
  })

  it('Claude Code 2.1.328’s real stream: calls after a Workflow started may come after its agent’s, read as it is', () => {
    // The real stdout (test/fixtures/claude-workflow): Monitor `echo monitored`, then a Workflow whose
    // agent ran `wc -l README.md` apart from the stream. Claude Code's own stream-json reader places the workflow.
    const path = resolve(import.meta.dirname, '../../../test/fixtures/claude-workflow/monitor-then-workflow.stream.jsonl')
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
    // The Monitor came before the workflow started: an order it decides stands.
    const monitorFirst = '{order: {first: {tools: [Monitor]}, before: {tools: [Workflow]}}}'
    expect(rowOf(monitorFirst, `${lines.join('\n')}\n`).verdict).toBe('ok')
    // Two calls made after the workflow started (the last assistant record, given them): `ls`, then
    // `wc -c`. In the stream `ls` comes first, but the agent's `wc -l` may have come before either.
    const last = JSON.parse(lines.at(-3) as string) as { message: { content: unknown[] } }
    last.message.content = [
      { type: 'tool_use', id: 'toolu_vh_004_1', name: 'Bash', input: { command: 'ls' } },
      { type: 'tool_use', id: 'toolu_vh_004_2', name: 'Bash', input: { command: 'wc -c README.md' } },
    ]
    const withCalls = [...lines.slice(0, -3), JSON.stringify(last), ...lines.slice(-2)].join('\n') + '\n'
    const row = rowOf('{order: {first: {subject: {equals: "proc:ls"}}, before: {subject: {equals: "proc:wc"}}}}', withCalls)
    expect(row).toMatchObject({ verdict: 'unknown', outcome: { reason: 'subagent_calls_unseen', subagents: 1 } })
  })
})
