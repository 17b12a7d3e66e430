import { dirname, basename } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scriptedAdapter } from '../../adapters/scripted/adapter.js'
import type { LoadedVector } from '../../src/contract/manifest.js'
import { checkHookInputVector } from '../../src/contract/run-vector.js'
import { referenceFile } from './paths.js'

// The hook-input vector kind on a real Claude Code PreToolUse stdin document (upstream's
// `golden-hook-input` row), read where it lies. The scripted double renders `shell` as Bash, as
// Claude Code does, so the rendering half of the row is exercised too.
const hook = referenceFile('metaharness', 'claude', 'hook-input.json')

function vector(expected: Extract<LoadedVector, { kind: 'hook-input' }>['expected']): Extract<LoadedVector, { kind: 'hook-input' }> {
  return {
    id: 'claude-hook-input',
    tier: 'c2',
    kind: 'hook-input',
    adapter: 'scripted',
    provenance: 'vendor_live',
    pins: [],
    inputs: { hook: basename(hook) },
    expected,
    dir: dirname(hook),
  }
}

describe('a recorded hook-input vector over a real PreToolUse document', () => {
  it('pins its fields by JSON pointer and holds the tool it names against the rendering', () => {
    const check = checkHookInputVector(
      vector({
        fields: { '/hook_event_name': 'PreToolUse', '/tool_name': 'Bash', '/tool_input/command': 'ls', '/effort': { level: 'high' } },
        rendering: { operation: 'shell', pointer: '/tool_name' },
      }),
      scriptedAdapter,
    )
    expect(check.outcome).toEqual({ id: 'claude-hook-input', tier: 'c2', passed: true, detail: '' })
  })

  it('fails naming the pointer whose value moved', () => {
    const check = checkHookInputVector(vector({ fields: { '/tool_input/command': 'ls -la' } }), scriptedAdapter)
    expect(check.outcome.detail).toBe('at /tool_input/command: expected "ls -la", observed "ls"')
  })

  it('fails when the named tool is not what the adapter renders the operation to', () => {
    const check = checkHookInputVector(vector({ fields: {}, rendering: { operation: 'file.read', pointer: '/tool_name' } }), scriptedAdapter)
    expect(check.outcome.detail).toBe('the hook names "Bash" at /tool_name for file.read, and the adapter renders it to "Read"')
  })
})
