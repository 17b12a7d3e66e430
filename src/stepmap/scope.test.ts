import { describe, expect, it } from 'vitest'
import { checkWrite, normalizeScopePath, scopeGlobMatches, writesInTranscript } from './scope.js'
import type { ScopeRule } from './types.js'

describe('scope globs (b10x-harness --write-scope semantics)', () => {
  it.each([
    ['crates/**', 'crates/a/b.rs', true],
    ['crates/**', 'crates', false],
    ['docs/**', 'docs/x.md', true],
    ['**', 'anything/at/all', true],
    ['**/x', 'x', true],
    ['**/x', 'a/b/x', true],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/nested/a.ts', false],
    ['*.md', 'README.md', true],
    ['a?c', 'abc', false],
    ['.engineering/planning/**', '.engineering/planning/story.md', true],
  ])('%s against %s is %s', (glob, path, expected) => {
    expect(scopeGlobMatches(glob, path)).toBe(expected)
  })

  it('normalizes lexically: drops empty and `.`, pops on `..`, keeps a leading `..`', () => {
    expect(normalizeScopePath('./a//b/../c')).toBe('a/c')
    expect(normalizeScopePath('../x/./y')).toBe('../x/y')
  })
})

describe('checkWrite', () => {
  const scope: ScopeRule[] = [
    { paths: ['.engineering/planning/**'], write: 'denied' },
    { paths: ['src/**'], write: 'partial-only' },
    { paths: ['**'], write: 'allowed' },
  ]
  const write = (path: string, operation: 'file.write' | 'file.edit' = 'file.write') => ({ path, operation, tool: 'Write' })

  it('first match wins: denied, then partial-only refusing a whole-file write, then the catch-all', () => {
    expect(checkWrite(scope, write('.engineering/planning/x.md'), '/ws')?.rule).toBe(scope[0])
    expect(checkWrite(scope, write('/ws/src/a.ts'), '/ws')?.reason).toContain('replaced the whole of `src/a.ts`')
    expect(checkWrite(scope, write('src/a.ts', 'file.edit'), '/ws')).toBeUndefined()
    expect(checkWrite(scope, write('docs/a.md'), '/ws')).toBeUndefined()
  })

  it('refuses a path outside the working tree once rules exist, and restricts nothing without rules', () => {
    expect(checkWrite(scope, write('/etc/passwd'), '/ws')?.reason).toContain('outside the working tree /ws')
    expect(checkWrite(scope, write('../elsewhere/x'), '/ws')?.rule).toBeUndefined()
    expect(checkWrite([], write('/etc/passwd'), '/ws')).toBeUndefined()
  })
})

describe('writesInTranscript', () => {
  it('counts file writes and edits by subject, leaving out calls whose result failed', () => {
    const requested = (call_id: string, name: string, operations: string[], subjects: string[]) => ({ event: 'tool.requested' as const, call_id, name, input: {}, operations, subjects, decision_required: false, deadline_ms: null, seam: 'none' as const })
    const writes = writesInTranscript([
      requested('1', 'Write', ['file.write'], ['file:a.txt']),
      requested('2', 'Edit', ['file.edit'], ['file:b.txt']),
      requested('3', 'Bash', ['shell'], ['proc:rm']),
      requested('4', 'Write', ['file.write'], ['file:c.txt']),
      { event: 'tool.result', call_id: '4', is_error: true, content: 'denied', bytes: null, tool_use_result: null } as never,
    ])
    expect(writes).toEqual([
      { path: 'a.txt', operation: 'file.write', tool: 'Write' },
      { path: 'b.txt', operation: 'file.edit', tool: 'Edit' },
    ])
  })
})
