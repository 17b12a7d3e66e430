import { describe, expect, it } from 'vitest'
import { classifyCall, dispatchedCall, type ToolOperationTable } from './operations.js'

const table: ToolOperationTable = {
  tools: { web_fetch: 'web.read', run_shell_command: 'shell' },
  dispatchers: { tool_call: { nameKey: 'name', inputKey: 'arguments' } },
  pathKeys: ['file_path'],
  commandKeys: ['command'],
}

describe('a dispatcher call', () => {
  it('is the tool it invoked, with that tool’s input, given as an object or as a JSON text', () => {
    expect(dispatchedCall(table, 'tool_call', { name: 'web_fetch', arguments: { url: 'u' } })).toEqual({ name: 'web_fetch', input: { url: 'u' } })
    expect(dispatchedCall(table, 'tool_call', { name: 'run_shell_command', arguments: '{"command":"ls"}' })).toEqual({ name: 'run_shell_command', input: { command: 'ls' } })
    // Arguments that are not JSON stay the text they are; no arguments, an empty input.
    expect(dispatchedCall(table, 'tool_call', { name: 'web_fetch', arguments: 'not json' })).toEqual({ name: 'web_fetch', input: 'not json' })
    expect(dispatchedCall(table, 'tool_call', { name: 'web_fetch' })).toEqual({ name: 'web_fetch', input: {} })
  })

  it('names no tool, so it stays the dispatcher call it is (unclassified); any other tool is as called', () => {
    expect(dispatchedCall(table, 'tool_call', { arguments: {} })).toEqual({ name: 'tool_call', input: { arguments: {} } })
    expect(classifyCall(table, 'tool_call', { arguments: {} }).known).toBe(false)
    expect(dispatchedCall(table, 'run_shell_command', { name: 'x', arguments: {} })).toEqual({ name: 'run_shell_command', input: { name: 'x', arguments: {} } })
    // A table without dispatchers reads a `tool_call` as a tool of that name.
    expect(dispatchedCall({ ...table, dispatchers: {} }, 'tool_call', { name: 'web_fetch', arguments: {} })).toMatchObject({ name: 'tool_call' })
  })
})
