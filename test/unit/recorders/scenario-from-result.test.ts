import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { parseScenario, RecorderError, startProvider, type Provider } from '../../../recorders/index.js'

// A scripted argument taken from the last tool result the request carries (`$from_result`): the
// id a harness hands out at run time, which no script can know ahead — through each wire's SDK.
let provider: Provider | undefined
afterEach(() => provider?.close())

const OUTPUT = 'Chunk ID: 3b654b\nWall time: 0.5007 seconds\nProcess running with session ID 74472\nOutput:\n$ '
const SCENARIO = {
  scenario: 'type-into-a-shell',
  turns: [
    { tool_calls: [{ name: 'exec_command', arguments: { cmd: 'bash', tty: true } }] },
    { tool_calls: [{ name: 'write_stdin', arguments: { session_id: { $from_result: 'session ID (\\d+)', as: 'number' }, chars: 'ls\n', note: [{ chunk: { $from_result: 'Chunk ID: \\w+' } }] } }] },
    { text: 'Listed.' },
  ],
}

async function serve(scenario: unknown = SCENARIO): Promise<Provider> {
  provider = await startProvider({ scenario: parseScenario(scenario), env: {} })
  return provider
}

const TAKEN = { session_id: 74472, chars: 'ls\n', note: [{ chunk: 'Chunk ID: 3b654b' }] }

describe('scenario arguments taken from the last tool result', () => {
  it('Responses: the group as a number, the whole match as a string, at any depth', async () => {
    const client = new OpenAI({ baseURL: (await serve()).baseUrl, apiKey: 'placeholder' })
    const tools = [{ type: 'function' as const, name: 'exec_command', parameters: { type: 'object' }, strict: false }]
    const typed = await client.responses.create({
      model: 'm',
      tools,
      input: [
        { role: 'user', content: 'Start a shell.' },
        // Two calls in one turn: the last result is the one read.
        { type: 'function_call', call_id: 'call_vh_001_1', name: 'exec_command', arguments: '{}' },
        { type: 'function_call', call_id: 'call_x', name: 'exec_command', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_vh_001_1', output: 'Process running with session ID 1' },
        { type: 'function_call_output', call_id: 'call_x', output: OUTPUT },
      ],
    })
    const call = typed.output.find((item) => item.type === 'function_call')
    expect(call?.type === 'function_call' ? JSON.parse(call.arguments) : undefined).toEqual(TAKEN)
  })

  it('Chat Completions, Messages and Gemini read their own wire’s tool results', async () => {
    const served = await serve()
    const chat = new OpenAI({ baseURL: served.baseUrl, apiKey: 'placeholder' })
    const answer = await chat.chat.completions.create({
      model: 'm',
      tools: [{ type: 'function', function: { name: 'exec_command', parameters: { type: 'object' } } }],
      messages: [
        { role: 'user', content: 'Start a shell.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_vh_001_1', type: 'function', function: { name: 'exec_command', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_vh_001_1', content: [{ type: 'text', text: OUTPUT }] },
      ],
    })
    expect(JSON.parse(answer.choices[0]?.message.tool_calls?.[0]?.type === 'function' ? answer.choices[0].message.tool_calls[0].function.arguments : '')).toEqual(TAKEN)

    const anthropic = new Anthropic({ baseURL: served.baseUrl.replace(/\/v1$/, ''), apiKey: 'placeholder' })
    const message = await anthropic.messages.create({
      model: 'm',
      max_tokens: 100,
      tools: [{ name: 'exec_command', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'Start a shell.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_vh_001_1', name: 'exec_command', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_vh_001_1', content: [{ type: 'text', text: OUTPUT }] }] },
      ],
    })
    expect(message.content[0]).toMatchObject({ type: 'tool_use', input: TAKEN })

    const gemini = new GoogleGenAI({ apiKey: 'placeholder', httpOptions: { baseUrl: served.baseUrl.replace(/\/v1$/, '') } })
    const generated = await gemini.models.generateContent({
      model: 'gemini-test',
      config: { tools: [{ functionDeclarations: [{ name: 'exec_command' }] }] },
      contents: [
        { role: 'user', parts: [{ text: 'Start a shell.' }] },
        { role: 'model', parts: [{ functionCall: { name: 'exec_command', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'exec_command', response: { output: OUTPUT } } }] },
      ],
    })
    expect(generated.functionCalls?.[0]?.args).toEqual(TAKEN)
  })

  it('answers a 400 naming the scenario, the turn and the result when the regex finds nothing', async () => {
    const client = new OpenAI({ baseURL: (await serve()).baseUrl, apiKey: 'placeholder', maxRetries: 0 })
    const asked = client.chat.completions.create({
      model: 'm',
      tools: [{ type: 'function', function: { name: 'exec_command', parameters: { type: 'object' } } }],
      messages: [
        { role: 'user', content: 'Start a shell.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_vh_001_1', type: 'function', function: { name: 'exec_command', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_vh_001_1', content: 'Process exited with code 0' },
      ],
    })
    await expect(asked).rejects.toMatchObject({ status: 400, message: expect.stringContaining('the scenario type-into-a-shell turn 2: /session ID (\\d+)/ matched nothing in the last tool result: "Process exited with code 0"') })
  })

  it('names where a malformed reference stands: in a thread’s turn, or in the untooled answer', () => {
    const bad = { tool_calls: [{ name: 'x', arguments: { id: { $from_result: '(' } } }] }
    expect(() => parseScenario({ scenario: 's', turns: [{ text: 'hi' }], threads: [{ when: { first_user_text_contains: 'sub' }, turns: [{ text: 'a' }, bad] }] })).toThrow('$.threads[0].turns[1].tool_calls[0].arguments.id.$from_result')
    expect(() => parseScenario({ scenario: 's', turns: [{ text: 'hi' }], untooled: bad })).toThrow('$.untooled.tool_calls[0].arguments.id.$from_result')
  })

  it.each([
    [{ $from_result: '(' }, '$.turns[0].tool_calls[0].arguments.id.$from_result: not a regex RE2 can run'],
    [{ $from_result: 'x', as: 'boolean' }, '$.turns[0].tool_calls[0].arguments.id.as: "as" is "string" or "number"'],
    [{ $from_result: 'x', group: 2 }, '$.turns[0].tool_calls[0].arguments.id.group: only "as" may stand beside $from_result, not "group"'],
    [{ $from_result: 3 }, '$.turns[0].tool_calls[0].arguments.id.$from_result: a $from_result reference holds a regex string'],
  ])('refuses %j when the scenario loads', (reference, message) => {
    expect(() => parseScenario({ scenario: 's', turns: [{ tool_calls: [{ name: 'x', arguments: { id: reference } }] }] })).toThrow(RecorderError)
    expect(() => parseScenario({ scenario: 's', turns: [{ tool_calls: [{ name: 'x', arguments: { id: reference } }] }] })).toThrow(message)
  })
})
