import { describe, expect, it } from 'vitest'
import { call, closed, ended, metaharness, result, rowOf, start, type Event } from '../../../test/helpers/trace.js'

/** A closed run of one call of `name` with `input`, classified as `operations`. */
function oneCall(name: string, input: Record<string, unknown>, operations: string[]): string {
  const events: Event[] = [start(), call('c-1', name, input, { operations }), result('c-1'), ended()]
  return metaharness([...events, closed(events.length)])
}

const noShellIntoTheStore = "{tool.absent: {operations: [shell], args: {command: {regex: '\\.engineering/'}}}}"

describe('args.command on every harness', () => {
  it('reads a shell call’s line under the name its harness gives it: Codex’s cmd, Terminus’s keystrokes', () => {
    expect(rowOf(noShellIntoTheStore, oneCall('Bash', { command: 'echo x > .engineering/n.md' }, ['shell'])).verdict).toBe('gap')
    expect(rowOf(noShellIntoTheStore, oneCall('exec_command', { cmd: 'echo x > .engineering/n.md', workdir: '/w' }, ['shell'])).verdict).toBe('gap')
    expect(rowOf(noShellIntoTheStore, oneCall('bash_command', { keystrokes: 'echo x > .engineering/n.md\n' }, ['shell'])).verdict).toBe('gap')
    expect(rowOf(noShellIntoTheStore, oneCall('exec_command', { cmd: 'ls' }, ['shell'])).verdict).toBe('ok')
  })

  it('reads no other name: a call that runs no line has none, and a call that is no shell call keeps its own fields', () => {
    expect(rowOf(noShellIntoTheStore, oneCall('BashOutput', { bash_id: 'bash_1' }, ['shell'])).verdict).toBe('ok')
    expect(rowOf("{tool.absent: {args: {command: {contains: 'x'}}}}", oneCall('Frob', { cmd: 'x' }, ['search'])).verdict).toBe('ok')
  })
})
