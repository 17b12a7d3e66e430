import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LaunchDeclaration } from '../../adapters/launch/declaration.js'
import type { Emission } from '../../src/events/types.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { convertPath } from '../helpers/project.js'
import { CLAUDE_CODE, installedProgram, OPENCODE } from './harness-install.js'
import { filesUnder, freshDir, runCalls } from './harness-run.js'

// The real Claude Code given an MCP server whose tool runs a command line (`run_command
// {command}`, the shape of Desktop Commander's `start_process`): the model removes a file through
// it. Claude Code records the call as the MCP tool's, `mcp.call`, and no reader can tell the tool
// ran a shell line, so "no rm" and "no shell call" must not hold over it.
const SERVER = resolve(import.meta.dirname, 'fixtures', 'mcp', 'shell-server.mjs')
const TOOL = 'mcp__shell__run_command'
const SPEC = readSpec(`format: trace-spec/1
id: e2e/mcp-commands
expectations:
  - id: no-rm
    expect: {tool.absent: {subject: {equals: "proc:rm"}}}
  - id: no-shell
    expect: {tool.absent: {operations: [shell]}}
`)

const program = installedProgram(CLAUDE_CODE)

describe('a command line run through an MCP tool, on the real Claude Code', () => {
  it('removes the file, and neither "no rm" nor "no shell call" holds over its stdout or its session file', async () => {
    const workspace = freshDir('mcp-commands', 'claude', 'work')
    mkdirSync(join(workspace, 'generated'), { recursive: true })
    writeFileSync(join(workspace, 'generated', 'out.js'), 'export {}\n')
    const config = join(freshDir('mcp-commands', 'claude', 'config'), 'mcp.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { shell: { command: process.execPath, args: [SERVER, workspace] } } }))
    // The MCP tool allowed beside the declaration's own; the server named by a config file.
    const argv = CLAUDE_CODE.argv.flatMap((arg) => (arg.startsWith('Read,Bash') ? [`${arg},${TOOL}`, '--mcp-config', config] : [arg]))
    const launch = { ...CLAUDE_CODE, argv } as LaunchDeclaration
    const run = await runCalls({ suite: 'mcp-commands', name: 'claude', launch, wire: 'anthropic-messages', program: program(), prompt: 'Tidy up.', calls: [{ tool: TOOL, args: { command: 'rm generated/out.js' } }], workspace })
    // The tool ran the line.
    expect(existsSync(join(workspace, 'generated', 'out.js'))).toBe(false)
    const stdoutEvents = await convertPath(run.stdout)
    const requested = stdoutEvents.filter((event): event is Extract<Emission, { event: 'tool.requested' }> => event.event === 'tool.requested')
    expect(requested).toMatchObject([{ name: TOOL, operations: ['mcp.call'], input: { command: 'rm generated/out.js' } }])
    const sessions = filesUnder(join(run.result.scratch, 'claude', 'projects')).filter((file) => file.endsWith('.jsonl'))
    expect(sessions).toHaveLength(1)
    for (const [transcript, from] of [[run.stdout, undefined], [run.stdout, 'claude-code/stream-json'], [sessions[0] as string, undefined]] as const) {
      const report = await checkTranscriptFile(SPEC, transcript, from === undefined ? {} : { from })
      expect(report.expectations.map((row) => [row.id, row.verdict]), `${transcript} ${from ?? ''}`).toEqual([['no-rm', 'unknown'], ['no-shell', 'unknown']])
      // Over stdout, which closes, the reason is the MCP call; a session file never proves closure, which it names first.
      if (transcript === run.stdout) expect(report.expectations[0]?.outcome).toMatchObject({ reason: 'mcp_commands', programs: ['rm'] })
    }
  })
})

// opencode's code mode (experimental, `OPENCODE_EXPERIMENTAL_CODE_MODE=1`) hides an MCP server's
// tools from the model and offers `execute`, a script that calls them (`tools.shell.run_command`).
// Its stdout lists the script's calls only on the execute part's state: "the MCP tool never ran"
// must not hold over it.
const opencode = installedProgram(OPENCODE)

describe('an MCP tool called from a code-mode script, on the real opencode', () => {
  it('removes the file, and "shell_run_command never ran" is a gap over its stdout', async () => {
    const workspace = freshDir('mcp-commands', 'opencode', 'work')
    writeFileSync(join(workspace, 'junk.txt'), 'junk\n')
    const binding = OPENCODE.bindings['openai-chat']
    if (!binding) throw new Error('opencode binds the Chat Completions wire')
    const files = binding.files.map((file) => ({ ...file, content: `${JSON.stringify({ ...JSON.parse(file.content), mcp: { shell: { type: 'local', command: [process.execPath, SERVER, workspace] } } })}\n` }))
    const launch = { ...OPENCODE, env: { ...OPENCODE.env, OPENCODE_EXPERIMENTAL_CODE_MODE: '1' }, bindings: { ...OPENCODE.bindings, 'openai-chat': { ...binding, files } } } as LaunchDeclaration
    const code = "const r = await tools.shell.run_command({command: 'rm -f junk.txt && echo gone'}); return r"
    const run = await runCalls({ suite: 'mcp-commands', name: 'opencode', launch, wire: 'openai-chat', program: opencode(), prompt: 'Remove junk.txt.', calls: [{ tool: 'execute', args: { code } }], workspace })
    expect(run.requests.find((request) => Array.isArray(request['tool_names']) && (request['tool_names'] as string[]).length > 0)?.['tool_names']).toContain('execute')
    expect(existsSync(join(workspace, 'junk.txt')), 'the script’s MCP call ran the line').toBe(false)
    const spec = readSpec('format: trace-spec/1\nid: e2e/opencode-code-mode\nexpectations:\n  - id: mcp-tool-never-ran\n    expect: {tool.absent: {tools: [shell_run_command]}}\n')
    expect((await checkTranscriptFile(spec, run.stdout)).expectations.map((row) => row.verdict)).toEqual(['gap'])
  })
})
