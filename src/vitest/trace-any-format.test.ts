import { beforeAll, describe, expect, it } from 'vitest'
import { runInnerVitest, type InnerTest } from '../../test/helpers/inner-vitest.js'
import type { TraceCheckMeta } from './meta.js'

/**
 * `describeTraceSpec` and the matchers take a transcript in any format the adapters read: a path
 * is detected, `{ path, from }` and `{ text, from }` name the format.
 */

// `codex exec --json` stdout: the suite ran through the shell, nothing was edited, turn.completed closed it.
const EXEC = [
  { type: 'thread.started', thread_id: 'T1' },
  { type: 'turn.started' },
  { type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: "bash -lc 'npm test'", aggregated_output: 'ok', exit_code: 0, status: 'completed' } },
  { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'done' } },
  { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 } },
]
  .map((line) => `${JSON.stringify(line)}\n`)
  .join('')

const INNER = `
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { describeTraceSpec } from '@src/vitest/trace-suite.ts'
import { spec } from '@src/trace/spec/builder.ts'
const s = spec({ id: 'inner/any', expectations: [
  { id: 'ran-the-suite', expect: { 'tool.called': { operations: ['shell'], subject: { exact: 'proc:npm' } } } },
  { id: 'no-edit', expect: { 'tool.absent': { operations: ['file.edit', 'file.write'] } } },
] })
const path = new URL('./exec.jsonl', import.meta.url)
describeTraceSpec(s, path, { name: 'converted' })
describeTraceSpec(s, { path, from: 'claude-code/stream-json' }, { name: 'as stream-json', unknown: 'todo' })
test('matcher, detected path', () => { expect(path).toSatisfyTraceSpec(s) })
test('matcher, detected text', () => { expect({ text: readFileSync(path, 'utf8') }).toSatisfyTraceSpec(s) })
test('matcher, as stream-json', () => { expect({ path, from: 'claude-code/stream-json' }).toSatisfyTraceSpec(s) })
test('matcher, inline', () => { expect({ path, from: 'codex/exec-json' }).toSatisfyExpectation({ 'tool.called': { operations: ['shell'], args: { command: { contains: 'npm test' } } } }) })
`

let tests: InnerTest[] = []

beforeAll(() => {
  tests = runInnerVitest({ 'any.test.ts': INNER, 'exec.jsonl': EXEC }, ['@src/public/setup.ts']).tests
}, 120_000)

const find = (suite: string, name: string) => {
  const found = tests.find((test) => test.suite === suite && test.name === name)
  if (!found) throw new Error(`no test ${suite} > ${name} in ${JSON.stringify(tests.map((test) => `${test.suite} > ${test.name}`))}`)
  return found
}
const traceOf = (test: InnerTest) => (test.meta['vitestHarness'] as { trace?: TraceCheckMeta } | undefined)?.trace

describe('describeTraceSpec over any format', () => {
  it('converts a Codex exec stream it detects, and every row holds on the conversion', () => {
    expect(tests.filter((test) => test.suite === 'converted').map((test) => [test.name, test.state])).toEqual([
      ['ran-the-suite', 'pass'],
      ['no-edit', 'pass'],
    ])
    expect(traceOf(find('converted', 'no-edit'))?.report.adapter.name).toBe('codex/exec-json via metaharness/event-stream')
  })

  it('reads it as stream-json when told to: nothing is readable, so both rows are undecided (todo, never passed)', () => {
    expect(tests.filter((test) => test.suite === 'as stream-json').map((test) => [test.name, test.state])).toEqual([
      ['ran-the-suite', 'todo'],
      ['no-edit', 'todo'],
    ])
    expect(traceOf(find('as stream-json', 'no-edit'))?.report.adapter.name).toBe('claude-code/stream-json')
  })

  it('keeps the two readings of one file apart: same digest, different checks', () => {
    const converted = traceOf(find('converted', 'no-edit'))
    const streamJson = traceOf(find('as stream-json', 'no-edit'))
    expect(converted?.report.transcript_digest).toBe(streamJson?.report.transcript_digest)
    expect(converted?.key).not.toBe(streamJson?.key)
  })
})

describe('the trace matchers over any format', () => {
  it('check a detected path and a detected text synchronously, and fail the stream-json reading with its unknowns', () => {
    expect(find('', 'matcher, detected path').state).toBe('pass')
    expect(find('', 'matcher, detected text').state).toBe('pass')
    const streamJson = find('', 'matcher, as stream-json')
    expect(streamJson.state).toBe('fail')
    expect(streamJson.errors[0]).toContain('expected the transcript to satisfy inner/any (verdict unknown):')
    expect(find('', 'matcher, inline').state).toBe('pass')
    expect(traceOf(find('', 'matcher, detected text'))?.report.adapter.name).toBe('codex/exec-json via metaharness/event-stream')
  })
})
