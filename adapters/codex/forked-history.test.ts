import { describe, expect, it } from 'vitest'
import { checkAnyFormatText } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { convertLines } from '../../test/helpers/project.js'
import { FORKED_SPAWN_OUTPUT } from './forked-history.js'

/**
 * A Codex subagent spawned with `fork_context` writes its parent's rollout into its own first, then
 * the spawn call's output `FORKED_SPAWN_OUTPUT`, then its task and its work (codex-rs persists the
 * forked items as they are; a real child rendered by its user shows the parent's `curl` calls, its
 * two `spawn_agent` calls, that output, then the child's task). Read as they stand, the parent's
 * calls, model and usage were the child's: "the subagent ran the suite" was ok over one that never
 * ran it, "it ran on gpt-child" a gap, and its input tokens held the parent's.
 */

const at = (second: number) => `2026-03-13T05:14:${String(second).padStart(2, '0')}.000Z`
const record = (second: number, type: string, payload: object) => ({ timestamp: at(second), type, payload })
const call = (second: number, id: string, cmd: string) => record(second, 'response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: id })
const output = (second: number, id: string, text: string) => record(second, 'response_item', { type: 'function_call_output', call_id: id, output: text })
const tokens = (second: number, input: number) =>
  record(second, 'event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0 } } })

const childMeta = (forked: boolean) =>
  record(0, 'session_meta', { id: 'child', ...(forked ? { forked_from_id: 'parent' } : {}), cwd: '/w', cli_version: '0.169.0', source: { subagent: { thread_spawn: { parent_thread_id: 'parent', depth: 1 } } } })

/** The parent's history as the child's rollout copies it: its header, a turn that read `.env` and ran the suite, the spawn call. */
const parentHistory = [
  record(0, 'session_meta', { id: 'parent', cwd: '/w', cli_version: '0.169.0' }),
  record(0, 'turn_context', { model: 'gpt-parent' }),
  record(0, 'event_msg', { type: 'task_started', turn_id: 'p1' }),
  call(0, 'p-env', 'cat .env'),
  output(0, 'p-env', 'Process exited with code 0\nOutput:\nKEY=1\n'),
  call(0, 'p-test', 'cargo test'),
  output(0, 'p-test', 'Process exited with code 0\nOutput:\nok\n'),
  tokens(0, 1000),
  record(0, 'response_item', { type: 'function_call', name: 'spawn_agent', arguments: JSON.stringify({ message: 'list src', fork_context: true }), call_id: 'p-spawn' }),
]

/** The child's own run: its task, one listing, its usage, its end. */
const ownRun = [
  record(1, 'turn_context', { model: 'gpt-child' }),
  record(1, 'event_msg', { type: 'task_started', turn_id: 'c1' }),
  record(1, 'event_msg', { type: 'user_message', message: 'list src' }),
  call(2, 'c-ls', 'ls src'),
  output(3, 'c-ls', 'Process exited with code 0\nOutput:\na.ts\n'),
  tokens(4, 1500),
  record(5, 'event_msg', { type: 'task_complete', turn_id: 'c1', duration_ms: 4000 }),
]

const ended = output(0, 'p-spawn', FORKED_SPAWN_OUTPUT)
const lines = (rows: object[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`

const SPEC = readSpec(`format: trace-spec/1
id: forked-subagent
expectations:
  - id: never-read-env
    expect: {tool.absent: {operations: [file.read], subject: {glob: "file:.env"}}}
  - id: ran-the-suite
    expect: {tool.called: {operations: [shell], args: {command: {contains: "cargo test"}}, count: {at_least: 1}}}
  - id: listed-src
    expect: {tool.called: {operations: [shell], args: {command: {contains: "ls src"}}, count: {at_least: 1}}}
  - id: child-model
    expect: {env.model: {equals: gpt-child}}
  - id: input-tokens
    expect: {tokens.input: {count: {at_most: 600}}}
`)

const verdicts = (rows: object[]) => Object.fromEntries(checkAnyFormatText(SPEC, lines(rows), { from: 'codex/rollout-jsonl' }).expectations.map((row) => [row.id, row.verdict]))

describe("a forked Codex subagent's copy of its parent's rollout", () => {
  it("is not read as the subagent's run: its calls, turns, model and usage are the parent's", async () => {
    const events = await convertLines('codex/rollout-jsonl', [childMeta(true), ...parentHistory, ended, ...ownRun])
    const commands = events.filter((event) => event.event === 'tool.requested').map((event) => (event as { input: { cmd?: string } }).input.cmd)
    expect(commands).toEqual(['ls src'])
    expect(events[0]).toMatchObject({ event: 'session.started', session_id: 'child', model: 'gpt-child' })
    expect(events.find((event) => event.event === 'warning')).toMatchObject({ code: 'forked_history' })
    expect(events.filter((event) => event.event === 'turn.started')).toEqual([expect.objectContaining({ turn: 1 })])
    // The child's running total holds the parent's 1,000 input tokens: its own are the 500 after.
    expect(events.find((event) => event.event === 'usage')).toMatchObject({ model: 'gpt-child', usage: { input_tokens: 500 } })
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ duration_ms: 4000, usage: { input_tokens: 500 } })
  })

  it('decides the checks on the subagent alone', () => {
    expect(verdicts([childMeta(true), ...parentHistory, ended, ...ownRun])).toMatchObject({
      'never-read-env': 'unknown',
      'ran-the-suite': 'gap',
      'listed-src': 'ok',
      'child-model': 'ok',
      'input-tokens': 'ok',
    })
  })

  it("leaves an absence undecided for the subagent's own reason, not for the parent's read of .env", () => {
    const row = checkAnyFormatText(SPEC, lines([childMeta(true), ...parentHistory, ended, ...ownRun]), { from: 'codex/rollout-jsonl' }).expectations.find((expectation) => expectation.id === 'never-read-env')
    // A rollout never proves its stream closed; before, the parent's `cat .env` was the reason (`shell_files`).
    expect(row?.outcome).toMatchObject({ reason: 'stream_not_closed' })
  })

  it("of a subagent forked from a forked subagent, ends at the last copied history's end", async () => {
    const grandparent = [call(0, 'g-rm', 'rm -rf build'), output(0, 'g-rm', 'Process exited with code 0\nOutput:\n'), output(0, 'g-spawn', FORKED_SPAWN_OUTPUT)]
    const events = await convertLines('codex/rollout-jsonl', [childMeta(true), ...grandparent, ...parentHistory, ended, ...ownRun])
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => (event as { input: { cmd?: string } }).input.cmd)).toEqual(['ls src'])
  })

  it('stands as written where no copied history ended: a fork by the user, or no fork at all', async () => {
    for (const meta of [childMeta(true), childMeta(false)]) {
      const events = await convertLines('codex/rollout-jsonl', [meta, ...parentHistory, ...ownRun])
      const commands = events.filter((event) => event.event === 'tool.requested').map((event) => (event as { input: { cmd?: string } }).input.cmd)
      expect(commands).toEqual(['cat .env', 'cargo test', undefined, 'ls src'])
      expect(events[0]).toMatchObject({ event: 'session.started', model: 'gpt-parent' })
      expect(events.some((event) => event.event === 'warning' && event.code === 'forked_history')).toBe(false)
    }
  })

  it('an output that only quotes the text, or a rollout not forked, ends nothing', async () => {
    const quoted = output(0, 'p-spawn', `Process exited with code 0\nOutput:\n${FORKED_SPAWN_OUTPUT}\n`)
    const forkedQuoting = await convertLines('codex/rollout-jsonl', [childMeta(true), ...parentHistory, quoted, ...ownRun])
    expect(forkedQuoting.filter((event) => event.event === 'tool.requested')).toHaveLength(4)
    const notForked = await convertLines('codex/rollout-jsonl', [childMeta(false), ...parentHistory, ended, ...ownRun])
    expect(notForked.filter((event) => event.event === 'tool.requested')).toHaveLength(4)
  })

  it('past what may be held, is read as it stands from there, and the run is still read whole', async () => {
    const many = Array.from({ length: 26_000 }, (_, n) => [call(0, `p${n}`, `cat f${n}`), output(0, `p${n}`, 'Process exited with code 0\nOutput:\n')]).flat()
    const events = await convertLines('codex/rollout-jsonl', [childMeta(true), ...many, ended, ...ownRun])
    const requested = events.filter((event) => event.event === 'tool.requested')
    expect(requested).toHaveLength(26_001)
    expect(events[0]).toMatchObject({ event: 'session.started' })
  })
})
