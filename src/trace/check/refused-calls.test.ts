import { describe, expect, it } from 'vitest'
import { call, closed, ended, metaharness, result, rowOf, start, streamJson, type Event } from '../../../test/helpers/trace.js'
import { convertTextSync } from '../../../adapters/transcript/read.js'
import { describeOutcome, type Outcome } from './outcome.js'

/**
 * A call the harness refused was asked for and never ran. "The agent ran the validator" was ok
 * over a run whose only validator call Claude Code refused (a Bash call outside `--allowedTools`),
 * and "the suite ran before the code" was ok where the suite's call was refused and the code then
 * written. A floor is now met only by calls that ran, and an order's first side is its first call
 * that ran; a ceiling still counts every call asked for.
 */

const SUITE = { tool: 'Bash', args: { command: { contains: 'cargo test' } } }
const CODE = { tools: ['Write'], subject: { glob: 'file:*/src/*' } }
const ORDER = `{order: {first: ${JSON.stringify(SUITE)}, before: ${JSON.stringify(CODE)}}}`
const CALLED = `{tool.called: ${JSON.stringify({ ...SUITE, count: { at_least: 1 } })}}`

const verdict = (expect_: string, text: string): string => {
  const row = rowOf(expect_, text)
  return row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.verdict
}

/** Claude Code's stream of a `cargo test` call, then a write to the code: `refused` lists the first in the result's `permission_denials`. */
function claudeRun(refused: boolean, { inline = false }: { inline?: boolean } = {}): string {
  const assistant = (n: number, name: string, input: Event): Event => ({ type: 'assistant', session_id: 's', message: { id: `m${n}`, role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: `t${n}`, name, input }], usage: { input_tokens: 1, output_tokens: 1 } } })
  const answer = (n: number, content: string, isError: boolean): Event => ({ type: 'user', session_id: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content, is_error: isError }] } })
  const denial = { tool_name: 'Bash', tool_use_id: 't0', tool_input: { command: 'cargo test' } }
  return streamJson([
    { type: 'system', subtype: 'init', session_id: 's', cwd: '/w', tools: ['Bash', 'Write'], model: 'm', permissionMode: 'default', apiKeySource: 'none' },
    assistant(0, 'Bash', { command: 'cargo test' }),
    // Claude Code 2.1.328 also says so inline, before the call's result.
    ...(refused && inline ? [{ type: 'system', subtype: 'permission_denied', tool_name: 'Bash', tool_use_id: 't0', message: 'denied', session_id: 's' }] : []),
    answer(0, refused ? "Claude requested permissions to use Bash, but you haven't granted it yet." : 'test result: ok', refused),
    assistant(1, 'Write', { file_path: '/w/src/lib.rs', content: 'fn main() {}' }),
    answer(1, 'written', false),
    { type: 'result', subtype: 'success', is_error: false, session_id: 's', num_turns: 3, result: 'done', usage: { input_tokens: 1, output_tokens: 1 }, permission_denials: refused && !inline ? [denial] : [] },
  ])
}

/** How a native stream says the suite call was refused: a seam's denial, the vendor's list, a warning naming no call or naming it. */
type Refusal = 'seam' | 'vendor' | 'warning' | 'named'

/** The same run as a native stream, the first suite call refused as each of `refusals` says. */
function nativeRun(refusals: readonly Refusal[], suites = 1): string {
  const suiteCalls = Array.from({ length: suites }, (_, n) => [call(`c${n}`, 'Bash', { command: 'cargo test' }, { operations: ['shell'], subjects: ['proc:cargo'] }), result(`c${n}`)]).flat()
  const by = (refusal: Refusal) => refusals.includes(refusal)
  const events: Event[] = [
    start({ hermetic: { mode: 'strict', decisions: by('seam') ? 'ask' : 'observe' } }),
    ...suiteCalls.slice(0, 1),
    ...(by('seam') ? [{ event: 'tool.decided', call_id: 'c0', decision: { decision: 'deny', reason: 'not allowed' }, decided_by: 'embedder', seam: 'control_request', latency_ms: 1 }] : []),
    ...(by('warning') ? [{ event: 'warning', code: 'approval-denied', message: 'the approver denied the call' }] : []),
    ...(by('named') ? [{ event: 'warning', code: 'approval-denied', message: 'the approver denied c0', call_id: 'c0' }] : []),
    ...suiteCalls.slice(1),
    call('w', 'Write', { file_path: '/work/src/lib.rs', content: 'x' }, { operations: ['file.write'], subjects: ['file:/work/src/lib.rs'] }),
    result('w'),
    ended({ permission_denials: by('vendor') ? [{ tool_name: 'Bash', tool_use_id: 'c0', tool_input: {} }] : [], census: { allowed: 1, denied: by('seam') ? 1 : 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} } }),
  ]
  return metaharness([...events, closed(events.length + 1)])
}

describe('a call the harness refused never ran', () => {
  it('Claude Code: the refused suite call meets no floor and does not come first, read as stream-json or converted', () => {
    for (const text of [claudeRun(true), claudeRun(true, { inline: true }), convertTextSync(claudeRun(true), 'claude-code/stream-json')]) {
      expect(verdict(CALLED, text)).toBe('gap')
      expect(verdict(ORDER, text)).toBe('gap')
    }
    // The same run with the call allowed holds both.
    expect(verdict(CALLED, claudeRun(false))).toBe('ok')
    expect(verdict(ORDER, claudeRun(false))).toBe('ok')
  })

  it('the gap says which calls the harness refused', () => {
    const row = rowOf(ORDER, claudeRun(true))
    expect(row.outcome).toMatchObject({ outcome: 'gap', note: expect.stringContaining('the harness refused every') })
    expect(rowOf(CALLED, claudeRun(true)).outcome).toMatchObject({ note: expect.stringContaining('the harness refused 1 of them') })
  })

  it("a ceiling still counts every call asked for: a refused call is one the agent made", () => {
    expect(verdict(`{tool.called: ${JSON.stringify({ ...SUITE, count: { at_most: 0 } })}}`, claudeRun(true))).toBe('gap')
    expect(verdict(`{tool.absent: ${JSON.stringify(SUITE)}}`, claudeRun(true))).toBe('gap')
    // `exactly` is a floor and a ceiling: one call asked for, none ran.
    expect(verdict(`{tool.called: ${JSON.stringify({ ...SUITE, count: { exactly: 1 } })}}`, claudeRun(true))).toBe('gap')
  })

  it.each([['seam'], ['vendor']] as const)('a native stream whose %s names the refused call: a gap', (refusal) => {
    expect(verdict(CALLED, nativeRun([refusal]))).toBe('gap')
    expect(verdict(ORDER, nativeRun([refusal]))).toBe('gap')
    expect(verdict(CALLED, nativeRun([]))).toBe('ok')
    expect(verdict(ORDER, nativeRun([]))).toBe('ok')
  })

  it('a refusal that names no call leaves unknown what it may account for, and decides nothing it cannot', () => {
    expect(verdict(CALLED, nativeRun(['warning']))).toBe('unknown:calls_refused')
    expect(verdict(ORDER, nativeRun(['warning']))).toBe('unknown:calls_refused')
    // Two suite calls and one refusal: one of them ran.
    expect(verdict(CALLED, nativeRun(['warning'], 2))).toBe('ok')
    expect(verdict(ORDER, nativeRun(['warning'], 2))).toBe('ok')
    const row = rowOf(CALLED, nativeRun(['warning']))
    expect(describeOutcome(row.outcome as Outcome)).toContain('the harness refused a call without naming which')
  })

  it('a refusal warning that names its call decides as the vendor’s list does, and is one denial with it', () => {
    for (const refusals of [['named'], ['named', 'vendor']] as const) {
      expect(verdict(CALLED, nativeRun(refusals))).toBe('gap')
      expect(verdict(ORDER, nativeRun(refusals))).toBe('gap')
      expect(verdict('{permission.denied: {count: {exactly: 1}}}', nativeRun(refusals))).toBe('ok')
    }
  })

  it('past the ids a row keeps, refusals are bounded, never guessed: a floor they may reach is unknown', () => {
    // 1,500 suite calls, the last one refused by name: a row keeps 1,024 ids, so it cannot tell which.
    const events: Event[] = [start()]
    for (let n = 0; n < 1500; n++) events.push(call(`c${n}`, 'Bash', { command: 'cargo test' }, { operations: ['shell'], subjects: ['proc:cargo'] }), result(`c${n}`))
    events.push(ended({ permission_denials: [{ tool_name: 'Bash', tool_use_id: 'c1499', tool_input: {} }] }))
    const text = metaharness([...events, closed(events.length + 1)])
    const floor = (n: number) => `{tool.called: ${JSON.stringify({ ...SUITE, count: { at_least: n } })}}`
    expect(verdict(floor(1499), text)).toBe('ok')
    expect(verdict(floor(1500), text)).toBe('unknown:calls_refused')
    expect(verdict(floor(1501), text)).toBe('gap')
  })

  it('a later call that ran decides the order where the first was refused', () => {
    const twice = nativeRun(['vendor'], 2)
    const row = rowOf(ORDER, twice)
    expect(row.verdict).toBe('ok')
    // Cited: the second suite call (event 3: the opening is 1), not the refused first.
    expect(row.outcome).toMatchObject({ events: [3, expect.any(Number)] })
  })
})
