import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { parseScenario, RecorderError, startProvider, type Provider } from '../../../recorders/index.js'

// A scenario's threads: a subagent's conversation, told by its first user message, gets a script
// of its own — as each wire's real SDK sends it.
let provider: Provider | undefined
afterEach(() => provider?.close())

const SCENARIO = {
  scenario: 'delegate',
  turns: [{ tool_calls: [{ name: 'agent', arguments: { prompt: 'Count the bytes of README.md.' } }] }, { text: 'The subagent counted 14 bytes.' }],
  threads: [{ when: { first_user_text_contains: 'Count the bytes of README.md.' }, turns: [{ tool_calls: [{ name: 'run_shell_command', arguments: { command: 'wc -c README.md' } }] }, { text: '14' }] }],
}
const TOOL = { type: 'function' as const, function: { name: 'run_shell_command', parameters: { type: 'object' } } }

async function serve(): Promise<Provider> {
  provider = await startProvider({ scenario: parseScenario(SCENARIO), env: {} })
  return provider
}

describe('scenario threads', () => {
  it('Chat Completions: the main conversation and the subagent’s each follow their own turns, with ids of their own', async () => {
    const client = new OpenAI({ baseURL: (await serve()).baseUrl, apiKey: 'placeholder' })
    const main = await client.chat.completions.create({ model: 'm', tools: [TOOL], messages: [{ role: 'user', content: 'Delegate the count.' }] })
    expect(main.choices[0]?.message.tool_calls?.[0]).toMatchObject({ id: 'call_vh_001_1', function: { name: 'agent' } })
    // The subagent's first request: its prompt is its first user message (here after a preamble, in parts).
    const sub = await client.chat.completions.create({ model: 'm', tools: [TOOL], messages: [{ role: 'system', content: 'You are a subagent.' }, { role: 'user', content: [{ type: 'text', text: 'Context: /w' }, { type: 'text', text: 'Count the bytes of README.md.' }] }] })
    expect(sub.choices[0]?.message.tool_calls?.[0]).toMatchObject({ id: 'call_vh_t1_001_1', function: { name: 'run_shell_command', arguments: '{"command":"wc -c README.md"}' } })
    const subDone = await client.chat.completions.create({
      model: 'm',
      tools: [TOOL],
      messages: [
        { role: 'user', content: 'Count the bytes of README.md.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_vh_t1_001_1', type: 'function', function: { name: 'run_shell_command', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_vh_t1_001_1', content: '14 README.md' },
      ],
    })
    expect(subDone.choices[0]?.message.content).toBe('14')
    const mainDone = await client.chat.completions.create({
      model: 'm',
      tools: [TOOL],
      messages: [
        { role: 'user', content: 'Delegate the count.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_vh_001_1', type: 'function', function: { name: 'agent', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_vh_001_1', content: '14' },
      ],
    })
    expect(mainDone.choices[0]?.message.content).toBe('The subagent counted 14 bytes.')
  })

  it('Messages, Responses and Gemini: the thread is told by the first user message each wire carries', async () => {
    const served = await serve()
    const anthropic = new Anthropic({ baseURL: served.baseUrl.replace(/\/v1$/, ''), apiKey: 'placeholder' })
    const messages = await anthropic.messages.create({ model: 'm', max_tokens: 100, tools: [{ name: 'run_shell_command', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Count the bytes of README.md.' }] }] })
    expect(messages.content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_vh_t1_001_1', name: 'run_shell_command' })
    const openai = new OpenAI({ baseURL: served.baseUrl, apiKey: 'placeholder' })
    const responses = await openai.responses.create({ model: 'm', tools: [{ type: 'function', name: 'run_shell_command', parameters: { type: 'object' }, strict: false }], input: [{ role: 'user', content: [{ type: 'input_text', text: 'Count the bytes of README.md.' }] }] })
    expect(responses.output[0]).toMatchObject({ type: 'function_call', name: 'run_shell_command', call_id: 'call_vh_t1_001_1' })
    const gemini = new GoogleGenAI({ apiKey: 'placeholder', httpOptions: { baseUrl: served.baseUrl.replace(/\/v1$/, '') } })
    const answer = await gemini.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'Count the bytes of README.md.' }] }], config: { tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }] } })
    expect(answer.functionCalls?.[0]).toMatchObject({ id: 'call_vh_t1_001_1', name: 'run_shell_command' })
  })

  it('the opening is every user message before the first answer: context sent first still counts, a later user message does not', async () => {
    const client = new OpenAI({ baseURL: (await serve()).baseUrl, apiKey: 'placeholder' })
    // Codex sends its environment as a user message before the prompt.
    const opening = await client.responses.create({
      model: 'm',
      tools: [{ type: 'function', name: 'run_shell_command', parameters: { type: 'object' }, strict: false }],
      input: [
        { role: 'user', content: [{ type: 'input_text', text: '<environment_context>/w</environment_context>' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'Count the bytes of README.md.' }] },
      ],
    })
    expect(opening.output[0]).toMatchObject({ type: 'function_call', call_id: 'call_vh_t1_001_1' })
    // The main conversation, where the text comes up only after the first answer: still the main one's turn 2.
    const later = await client.chat.completions.create({
      model: 'm',
      tools: [TOOL],
      messages: [
        { role: 'user', content: 'Delegate the count.' },
        { role: 'assistant', content: 'Delegating.' },
        { role: 'user', content: 'Count the bytes of README.md.' },
      ],
    })
    expect(later.choices[0]?.message.content).toBe('The subagent counted 14 bytes.')
  })

  it('a Responses call names its tool namespace when the script gives one (Codex’s multi_agent_v1 tools)', async () => {
    provider = await startProvider({ scenario: parseScenario({ scenario: 'ns', turns: [{ tool_calls: [{ name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: { message: 'go' } }, { name: 'exec_command', arguments: { cmd: 'ls' } }] }] }), env: {} })
    const client = new OpenAI({ baseURL: provider.baseUrl, apiKey: 'placeholder' })
    const tools = [{ type: 'function' as const, name: 'exec_command', parameters: { type: 'object' }, strict: false }]
    const whole = await client.responses.create({ model: 'm', tools, input: 'delegate' })
    expect(whole.output).toMatchObject([
      { type: 'function_call', name: 'spawn_agent', namespace: 'multi_agent_v1' },
      { type: 'function_call', name: 'exec_command' },
    ])
    expect(whole.output[1]).not.toHaveProperty('namespace')
    const done: unknown[] = []
    for await (const event of await client.responses.create({ model: 'm', tools, input: 'delegate', stream: true })) if (event.type === 'response.output_item.done') done.push(event.item)
    expect(done[0]).toMatchObject({ name: 'spawn_agent', namespace: 'multi_agent_v1' })
  })

  it('a thread past its script says so, naming the thread; a thread with no turns or no text to match is refused', async () => {
    const client = new OpenAI({ baseURL: (await serve()).baseUrl, apiKey: 'placeholder', maxRetries: 0 })
    const past = await client.chat.completions
      .create({
        model: 'm',
        tools: [TOOL],
        messages: [
          { role: 'user', content: 'Count the bytes of README.md.' },
          { role: 'assistant', content: 'one' },
          { role: 'user', content: 'again' },
          { role: 'assistant', content: 'two' },
          { role: 'user', content: 'and again' },
        ],
      })
      .catch((error: unknown) => error)
    expect(past).toBeInstanceOf(OpenAI.BadRequestError)
    expect(String((past as Error).message)).toContain('has 2 turn(s) in thread 1 (first user text containing "Count the bytes of README.md.") and this request is turn 3')
    expect(() => parseScenario({ ...SCENARIO, threads: [{ when: { first_user_text_contains: '' }, turns: [{ text: 'x' }] }] })).toThrow(RecorderError)
    expect(() => parseScenario({ ...SCENARIO, threads: [{ when: { first_user_text_contains: 'x' }, turns: [] }] })).toThrow(/\$\.threads\[0\]\.turns/)
  })
})
