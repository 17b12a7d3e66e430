import OpenAI from 'openai'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCassette, startProvider } from 'vitest-harness/recorders'

// A conversation recorded once from a scripted model, then replayed through the real OpenAI SDK
// with no model, no network and no credential. The cassette and the request log are left in
// demo-output/provider/ for a person to read.
const outDir = join(process.env['VITEST_HARNESS_DEMO_OUT'] ?? 'demo-output', 'provider')
const scenario = new URL('./scenarios/read-then-answer.yaml', import.meta.url).pathname
const cassette = join(outDir, 'read-then-answer.cassette.jsonl')
const tools = [{ type: 'function' as const, name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false }]

async function conversation(baseUrl: string) {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'placeholder-not-a-key', maxRetries: 0 })
  const first = await client.responses.stream({ model: 'vh-emulated', input: 'What does README.md say?', tools }).finalResponse()
  const call = first.output.find((item) => item.type === 'function_call')
  if (!call || call.type !== 'function_call') throw new Error('the model asked for no tool')
  const second = await client.responses.stream({
    model: 'vh-emulated',
    tools,
    input: [{ role: 'user', content: 'What does README.md say?' }, call, { type: 'function_call_output', call_id: call.call_id, output: 'hello harness' }],
  }).finalResponse()
  return { call: { name: call.name, arguments: call.arguments }, answer: second.output_text }
}

describe('the loopback provider: record a scripted conversation, replay it through the real SDK', () => {
  it('replays exactly what was recorded', async () => {
    rmSync(outDir, { recursive: true, force: true })
    mkdirSync(outDir, { recursive: true })
    const recorder = await startProvider({ mode: 'record', scenario, cassette, env: {} })
    const recorded = await conversation(recorder.baseUrl)
    await recorder.close()

    const replayer = await startProvider({ mode: 'replay', cassette, recordRequests: join(outDir, 'requests.jsonl'), env: {} })
    const replayed = await conversation(replayer.baseUrl)
    await replayer.close()

    expect(replayed).toEqual(recorded)
    expect(replayed).toEqual({ call: { name: 'read_file', arguments: '{"path":"README.md"}' }, answer: 'The file says: hello harness' })
    expect(readCassette(cassette)).toMatchObject({ wire: 'openai-responses', provenance: 'provider_emulated', scenario: 'read-then-answer' })
    expect(readFileSync(cassette, 'utf8')).not.toContain('placeholder-not-a-key')
    expect(replayer.requests().map((entry) => entry.outcome)).toEqual(['replayed', 'replayed'])
  })
})
