import { describe, expect, it } from 'vitest'
import { call, claudeToolRun, closedRun, result, rowOf, type Event } from '../../../test/helpers/trace.js'

/**
 * An MCP tool given a command line (Desktop Commander's `start_process {command}`, a shell
 * server's `run_command {command}`) may run it as a shell would, but its harness names the call
 * `mcp.call` alone and gives it no `proc:` subjects. A selector by a program, or by `shell`, cannot
 * rule such a call out: an absence over it is unknown (`mcp_commands`), never ok.
 */

const mcp = (id: string, input: Event): Event[] => [call(id, 'mcp__desktop-commander__start_process', input, { operations: ['mcp.call'] }), result(id)]
const bash = (id: string, command: string): Event[] => [call(id, 'Bash', { command }, { operations: ['shell'], subjects: [`proc:${command.split(' ')[0] as string}`] }), result(id)]

const stream = (events: Event[]): string => closedRun(events)

const NO_RM = '{tool.absent: {subject: {equals: "proc:rm"}}}'

describe('MCP calls given a command line', () => {
  it('an absence of a program the line names is unknown, naming the call and the program', () => {
    const row = rowOf(NO_RM, stream(mcp('m-1', { command: 'rm -rf build && git push --force', timeout_ms: 5000 })))
    expect(row).toMatchObject({ verdict: 'unknown', outcome: { reason: 'mcp_commands', events: [1], programs: ['git', 'rm'] } })
  })

  it('so is an absence of shell calls: the tool may be a shell', () => {
    expect(rowOf('{tool.absent: {operations: [shell]}}', stream(mcp('m-1', { command: 'ls' })))).toMatchObject({ verdict: 'unknown', outcome: { reason: 'mcp_commands', programs: ['ls'] } })
  })

  it('a line that names no such program, an MCP call with no command, and a selector by another tool stay decided', () => {
    expect(rowOf(NO_RM, stream(mcp('m-1', { command: 'ls -la build' }))).verdict).toBe('ok')
    expect(rowOf(NO_RM, stream([call('m-2', 'mcp__supabase__execute_sql', { query: 'delete from t' }, { operations: ['mcp.call'] }), result('m-2')])).verdict).toBe('ok')
    expect(rowOf('{tool.absent: {tools: [Bash]}}', stream(mcp('m-1', { command: 'rm -rf build' }))).verdict).toBe('ok')
    // A program the line names, with an `args` matcher the call's arguments break, is ruled out.
    expect(rowOf('{tool.absent: {subject: {equals: "proc:rm"}, args: {command: {contains: "node_modules"}}}}', stream(mcp('m-1', { command: 'rm -rf build' }))).verdict).toBe('ok')
  })

  it('a ceiling that holds over the calls seen is a lower bound; a floor met still holds', () => {
    const transcript = stream([...bash('b-1', 'git status'), ...mcp('m-1', { command: 'git push' })])
    expect(rowOf('{tool.called: {subject: {equals: "proc:git"}, count: {at_most: 1}}}', transcript)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'mcp_commands' } })
    expect(rowOf('{tool.called: {subject: {equals: "proc:git"}, count: {at_least: 1}}}', transcript).verdict).toBe('ok')
  })

  it('an order is unknown where such a call came before the one that decided it', () => {
    const order = '{order: {first: {subject: {equals: "proc:npm"}}, before: {subject: {equals: "proc:git"}}}}'
    expect(rowOf(order, stream([...mcp('m-1', { command: 'git push' }), ...bash('b-1', 'npm test'), ...bash('b-2', 'git push')]))).toMatchObject({ verdict: 'unknown', outcome: { reason: 'mcp_commands', events: [1] } })
    expect(rowOf(order, stream([...bash('b-1', 'npm test'), ...mcp('m-1', { command: 'git push' }), ...bash('b-2', 'git push')])).verdict).toBe('ok')
  })

  it('Claude Code’s stream-json, read as it is: the same', () => {
    const transcript = claudeToolRun([{ name: 'mcp__desktop-commander__start_process', input: { command: 'rm -rf build', timeout_ms: 5000 } }], { tools: ['Bash', 'mcp__desktop-commander__start_process'] })
    expect(rowOf(NO_RM, transcript, { format: 'claude-code/stream-json' })).toMatchObject({ verdict: 'unknown', outcome: { reason: 'mcp_commands', programs: ['rm'] } })
  })
})
