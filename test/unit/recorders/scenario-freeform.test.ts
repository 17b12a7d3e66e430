import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { parseScenario, RecorderError, startProvider, type Provider } from '../../../recorders/index.js'

// A freeform (custom) tool takes raw text, not JSON arguments: Codex's code-mode `exec` takes
// JavaScript. A scripted call gives it as `input`, and the Responses wire sends a `custom_tool_call`,
// as OpenAI's SDK reads one.
let provider: Provider | undefined
afterEach(() => provider?.close())

const CODE = "const r = await tools.exec_command({cmd: 'ls'}); text(r)"

describe('a freeform tool call in a scenario', () => {
  it('Responses: a custom_tool_call with the raw input, whole and streamed (input deltas, then done), beside a function call', async () => {
    provider = await startProvider({ scenario: parseScenario({ scenario: 'freeform', turns: [{ tool_calls: [{ name: 'exec', input: CODE }, { name: 'wait', arguments: { cell_id: '1' } }] }] }), env: {} })
    const client = new OpenAI({ baseURL: provider.baseUrl, apiKey: 'placeholder' })
    const tools = [{ type: 'custom' as const, name: 'exec' }]
    const whole = await client.responses.create({ model: 'm', tools, input: 'list files' })
    expect(whole.output).toMatchObject([
      { type: 'custom_tool_call', name: 'exec', input: CODE, call_id: 'call_vh_001_1' },
      { type: 'function_call', name: 'wait', arguments: '{"cell_id":"1"}', call_id: 'call_vh_001_2' },
    ])
    expect(whole.output[0]).not.toHaveProperty('arguments')
    const types: string[] = []
    const deltas: string[] = []
    for await (const event of await client.responses.create({ model: 'm', tools, input: 'list files', stream: true })) {
      types.push(event.type)
      if (event.type === 'response.custom_tool_call_input.delta') deltas.push(event.delta)
      if (event.type === 'response.output_item.done' && event.output_index === 0) expect(event.item).toMatchObject({ type: 'custom_tool_call', input: CODE })
    }
    expect(deltas.join('')).toBe(CODE)
    expect(types.filter((type) => type.startsWith('response.custom_tool_call_input'))).toEqual(['response.custom_tool_call_input.delta', 'response.custom_tool_call_input.done'])
  })

  it('a call with both arguments and input is refused where it stands', () => {
    expect(() => parseScenario({ scenario: 'both', turns: [{ tool_calls: [{ name: 'exec', input: CODE, arguments: { cmd: 'ls' } }] }] })).toThrow(RecorderError)
    expect(() => parseScenario({ scenario: 'both', turns: [{ tool_calls: [{ name: 'exec', input: CODE, arguments: { cmd: 'ls' } }] }] })).toThrow(/arguments \(a function tool\) or input \(a freeform tool\), not both/)
  })
})
