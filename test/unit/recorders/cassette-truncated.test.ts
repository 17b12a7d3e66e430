import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCassette, readCassette, serializeCassette, startProvider, type Interaction } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'

// A cassette cut short (a killed write, a partial copy) must never replay as a complete answer:
// every interaction ends with {"end":n} and the file with {"complete":n}, so a cut anywhere is refused.
const streamed: Interaction = {
  wire: 'openai-chat',
  request: { method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: { model: 'm', stream: true, messages: [{ role: 'user', content: 'stream' }] } },
  response: {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    frames: [
      { event: null, data: { choices: [{ delta: { content: 'hel' } }] } },
      { event: null, data: { choices: [{ delta: { content: 'lo' } }] } },
      { event: null, dataText: '[DONE]' },
    ],
  },
}
const whole: Interaction = {
  wire: 'openai-chat',
  request: { method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: { model: 'm', messages: [{ role: 'user', content: 'whole' }] } },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: { choices: [{ message: { content: 'hello' } }] } },
}
const TEXT = serializeCassette({ provenance: 'synthetic', tool: 'vitest-harness test', interactions: [streamed, whole] })

function refusal(text: string): { code: unknown; location: unknown } | undefined {
  try {
    parseCassette(text, 'cut.jsonl')
    return undefined
  } catch (error) {
    return { code: (error as { code?: unknown }).code, location: (error as { location?: unknown }).location }
  }
}

describe('a cassette cut short', () => {
  const lines = TEXT.split('\n').slice(0, -1)

  it('ends every interaction with its end line and the file with the count', () => {
    expect(lines.map((line) => Object.keys(JSON.parse(line) as object)[0])).toEqual(['cassette', 'interaction', 'request', 'response', 'frame', 'frame', 'frame', 'end', 'interaction', 'request', 'response', 'body', 'end', 'complete'])
    expect(parseCassette(TEXT, 'whole.jsonl').interactions).toEqual([streamed, whole])
  })

  it('is refused at every line boundary, naming the file and the line where the rest is missing', () => {
    for (let keep = 0; keep < lines.length; keep++) {
      const cut = lines.slice(0, keep).map((line) => `${line}\n`).join('')
      expect(refusal(cut), `cut after ${keep} line(s)`).toEqual({ code: 'VH_CASSETTE_TRUNCATED', location: `cut.jsonl:${keep + 1}` })
    }
  })

  it('is refused when cut mid-line, at every byte of every line', () => {
    let offset = 0
    for (const [index, line] of lines.entries()) {
      for (let at = 1; at <= line.length; at++) {
        expect(refusal(TEXT.slice(0, offset + at)), `cut inside line ${index + 1} at ${at}`).toEqual({ code: 'VH_CASSETTE_TRUNCATED', location: `cut.jsonl:${index + 1}` })
      }
      offset += line.length + 1
    }
  })

  it('replays when whole; refused by the provider when cut after a whole interaction', async () => {
    const dir = scratchDir()
    const intact = join(dir, 'intact.cassette.jsonl')
    writeFileSync(intact, TEXT)
    const provider = await startProvider({ cassette: intact, env: {} })
    const answer = await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify(whole.request.body) })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe(JSON.stringify(whole.response.body))
    await provider.close()
    // Cut right after the first interaction's end line: it looks whole, one interaction short.
    const cut = join(dir, 'cut.cassette.jsonl')
    writeFileSync(cut, TEXT.slice(0, TEXT.indexOf('{"end":1}\n') + '{"end":1}\n'.length))
    expect(() => readCassette(cut)).toThrow(expect.objectContaining({ code: 'VH_CASSETTE_TRUNCATED', location: `${cut}:9`, message: expect.stringContaining('re-record it') }))
    await expect(startProvider({ cassette: cut, env: {} })).rejects.toMatchObject({ code: 'VH_CASSETTE_TRUNCATED' })
  })

  it('refuses the previous format, which had no end lines, asking for a re-recording or a migration', () => {
    const v1 = `${JSON.stringify({ cassette: 'vitest-harness.cassette/1', wire: 'openai-chat', provenance: 'synthetic', tool: 't' })}\n`
    expect(() => parseCassette(v1, 'old.jsonl')).toThrow(expect.objectContaining({ code: 'VH_CASSETTE_OUTDATED', location: 'old.jsonl:1', message: expect.stringMatching(/Re-record it .*or migrate it/) }))
  })

  it('refuses end and complete lines that do not add up', () => {
    const swap = (from: string, to: string) => refusal(TEXT.replace(from, to))
    expect(swap('{"end":1}', '{"end":2}')).toEqual({ code: 'VH_CASSETTE_CORRUPT', location: 'cut.jsonl:8' })
    expect(swap('{"complete":2}', '{"complete":3}')).toEqual({ code: 'VH_CASSETTE_CORRUPT', location: 'cut.jsonl:14' })
    expect(refusal(`${TEXT}{"end":3}\n`)).toEqual({ code: 'VH_CASSETTE_CORRUPT', location: 'cut.jsonl:15' })
    expect(refusal(TEXT.replace('{"end":1}\n', ''))).toEqual({ code: 'VH_CASSETTE_CORRUPT', location: 'cut.jsonl:8' })
  })
})
