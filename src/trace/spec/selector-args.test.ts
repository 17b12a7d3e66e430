import { describe, expect, it } from 'vitest'
import { call, closedRun, result, rowOf } from '../../../test/helpers/trace.js'

/**
 * A command given as argv (Codex's `shell`/`local_shell` `command: ["git", "push"]`) is matched
 * by an `args` matcher as its JSON text and as its words joined by spaces: the JSON text
 * `["git","push"]` never contains `git push`, so "no push" would have held over a push.
 */

function stream(command: unknown): string {
  return closedRun([call('c-1', 'shell', { command }, { operations: ['shell'], subjects: ['proc:git'] }), result('c-1')])
}

describe('args matchers over a command given as argv', () => {
  it('an absence by `contains` sees the words joined', () => {
    expect(rowOf('{tool.absent: {args: {command: {contains: "git push"}}}}', stream(['git', 'push', 'origin', 'main'])).verdict).toBe('gap')
    expect(rowOf('{tool.absent: {args: {command: {contains: "git push"}}}}', stream(['git', 'status'])).verdict).toBe('ok')
  })

  it('a count by `regex`, `glob` or `exact` sees them too, and the JSON text still matches as before', () => {
    expect(rowOf('{tool.called: {args: {command: {regex: "^git push\\\\b"}}}}', stream(['git', 'push'])).verdict).toBe('ok')
    expect(rowOf('{tool.called: {args: {command: {glob: "git push*"}}}}', stream(['git', 'push', '--force'])).verdict).toBe('ok')
    expect(rowOf('{tool.called: {args: {command: {exact: "git push"}}}}', stream(['git', 'push'])).verdict).toBe('ok')
    expect(rowOf('{tool.called: {args: {command: {contains: "\\"-lc\\""}}}}', stream(['bash', '-lc', 'git push'])).verdict).toBe('ok')
  })
})
