import { describe, expect, it } from 'vitest'
import type { Interaction } from './cassette.js'
import { InteractionIndex, RequestCanonicalizer } from './match.js'

const interaction = (body: Record<string, unknown>, text: string): Interaction => ({
  wire: 'openai-responses',
  request: { method: 'POST', path: '/v1/responses', headers: {}, body: body as never },
  response: { status: 200, headers: {}, bodyText: text },
})

describe('request matching', () => {
  const canonicalizer = new RequestCanonicalizer()

  it('ignores what harnesses vary: cache keys, metadata, session ids, obfuscation, timestamps, uuids', () => {
    const a = { model: 'm', input: 'hi', prompt_cache_key: 'one', metadata: { user_id: 'u1' }, session_id: 'x', client_metadata: { a: 1 }, delta: { obfuscation: 'abc' }, note: 'run 123e4567-e89b-12d3-a456-426614174000 at 2026-09-18T10:00:00Z' }
    const b = { model: 'm', input: 'hi', prompt_cache_key: 'two', metadata: { user_id: 'u2' }, session_id: 'y', client_metadata: { b: 2 }, delta: { obfuscation: 'xyz' }, note: 'run 00000000-0000-4000-8000-000000000000 at 2027-01-01T00:00:00.123+02:00' }
    expect(canonicalizer.identity({ method: 'POST', path: '/v1/responses', body: a })).toBe(canonicalizer.identity({ method: 'POST', path: '/v1/responses', body: b }))
  })

  it("tolerates the volatile lines of Codex's exec_command output", () => {
    const output = (id: string, wall: string) => ({ input: [{ type: 'function_call_output', call_id: 'c1', output: `Chunk ID: ${id}\nWall time: ${wall} seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\nhello harness\n` }] })
    expect(canonicalizer.identity({ method: 'POST', path: '/v1/responses', body: output('a1b2c3', '0.0042') })).toBe(canonicalizer.identity({ method: 'POST', path: '/v1/responses', body: output('ffee99', '0.1100') }))
    expect(canonicalizer.identity({ method: 'POST', path: '/v1/responses', body: output('a1b2c3', '0.0042') })).not.toBe(canonicalizer.identity({ method: 'POST', path: '/v1/responses', body: { input: [{ type: 'function_call_output', call_id: 'c1', output: 'other' }] } }))
  })

  it('tolerates how long a process ran, never how it exited', () => {
    const exited = (code: number, after: string) => ({ input: [{ type: 'function_call_output', call_id: 'c1', output: `Process exited with code ${code} after ${after}\nOutput:\nok\n` }] })
    const identity = (code: number, after: string) => canonicalizer.identity({ method: 'POST', path: '/v1/responses', body: exited(code, after) })
    expect(identity(0, '0.1s')).toBe(identity(0, '2.5s'))
    // A command that failed where the recording's succeeded is another request: no recorded answer fits it.
    expect(identity(1, '0.1s')).not.toBe(identity(0, '0.1s'))
    expect(identity(-1, '0.1s')).not.toBe(identity(1, '0.1s'))
  })

  it("tolerates the dated lines of Qwen Code's prompt: the startup context and the reminder on each user turn", () => {
    // As Qwen Code 0.24.4 sends them (a real request body's two dated texts), on two days.
    const request = (day: string) => ({
      messages: [
        { role: 'system', content: `We are setting up the context for our chat.\nToday's date is ${day}.\nMy operating system is: linux` },
        { role: 'user', content: [{ type: 'text', text: 'Read README.md.' }, { type: 'text', text: `<system-reminder>\nThe current date is: ${day}. Note: This is the authoritative current date — it may differ from the "Today's date" mentioned earlier in the conversation startup context.\n</system-reminder>` }] },
      ],
    })
    const identity = (day: string) => canonicalizer.identity({ method: 'POST', path: '/v1/chat/completions', body: request(day) })
    expect(identity('Friday, December 4, 2026')).toBe(identity('Thursday, December 3, 2026'))
    // Only the date goes: the rest of the reminder still counts.
    const other = request('Thursday, December 3, 2026')
    ;(other.messages[1]?.content as { text: string }[])[1]!.text = '<system-reminder>\nThe current date is: Thursday, December 3, 2026. Note: something else.\n</system-reminder>'
    expect(canonicalizer.identity({ method: 'POST', path: '/v1/chat/completions', body: other })).not.toBe(identity('Thursday, December 3, 2026'))
  })

  it('keeps what matters: key order does not, values do', () => {
    expect(canonicalizer.identity({ method: 'POST', path: '/p', body: { a: 1, b: 2 } })).toBe(canonicalizer.identity({ method: 'POST', path: '/p', body: { b: 2, a: 1 } }))
    expect(canonicalizer.identity({ method: 'POST', path: '/p', body: { a: 1 } })).not.toBe(canonicalizer.identity({ method: 'POST', path: '/p', body: { a: 2 } }))
    expect(canonicalizer.identity({ method: 'POST', path: '/p', body: { a: 1 } })).not.toBe(canonicalizer.identity({ method: 'POST', path: '/q', body: { a: 1 } }))
  })

  it('applies user rules: JSON paths to ignore and text to rewrite', () => {
    const custom = new RequestCanonicalizer({ ignore: ['$.messages[*].id', "$['x-trace']"], replace: [{ path: '$.system', pattern: /cwd=\S+/, with: 'cwd=<cwd>' }] })
    const one = { messages: [{ id: 1, text: 't' }], 'x-trace': 'a', system: 'cwd=/tmp/a1' }
    const two = { messages: [{ id: 2, text: 't' }], 'x-trace': 'b', system: 'cwd=/tmp/b2' }
    expect(custom.identity({ method: 'POST', path: '/p', body: one })).toBe(custom.identity({ method: 'POST', path: '/p', body: two }))
    expect(canonicalizer.identity({ method: 'POST', path: '/p', body: one })).not.toBe(canonicalizer.identity({ method: 'POST', path: '/p', body: two }))
    expect(() => new RequestCanonicalizer({ ignore: ['messages.id'] })).toThrow(/must start with \$/)
  })

  it('replays identical requests in recorded order, then repeats the last (or misses when asked)', () => {
    const recorded = [interaction({ input: 'same' }, 'first'), interaction({ input: 'other' }, 'x'), interaction({ input: 'same' }, 'second')]
    const take = (index: InteractionIndex) => {
      const found = index.take({ method: 'POST', path: '/v1/responses', body: { input: 'same' } }, null)
      return 'interaction' in found ? found.interaction.response.bodyText : found.miss.message
    }
    const repeating = new InteractionIndex([...recorded], canonicalizer)
    expect([take(repeating), take(repeating), take(repeating)]).toEqual(['first', 'second', 'second'])
    const strict = new InteractionIndex([...recorded], canonicalizer, 'miss')
    expect([take(strict), take(strict)]).toEqual(['first', 'second'])
    expect(take(strict)).toMatch(/was recorded 2 time\(s\) and this is request 3/)
  })

  it('names the nearest recorded request and the first JSON path where they differ', () => {
    const index = new InteractionIndex([interaction({ model: 'm', input: [{ role: 'user', content: 'read a' }] }, ''), interaction({ model: 'm', input: [{ role: 'user', content: 'read b' }, { role: 'assistant', content: 'x' }] }, '')], canonicalizer)
    const found = index.take({ method: 'POST', path: '/v1/responses', body: { model: 'm', input: [{ role: 'user', content: 'read c' }] } }, 'm')
    expect('miss' in found && found.miss).toMatchObject({ nearest: 1, differsAt: '$.input[0].content', recordedValue: 'read a', receivedValue: 'read c' })
    const elsewhere = index.take({ method: 'POST', path: '/v1/chat/completions', body: {} }, null)
    expect('miss' in elsewhere && elsewhere.miss.message).toMatch(/none on this path \(it has POST \/v1\/responses\)/)
  })
})
