import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { runCalls } from './harness-run.js'
import { installedPrograms, sessionFilesOf, shellArguments, withExpected, workspaceWithGenerated } from './harness-shells.js'

// One shell call on every real harness that removes `src/generated/out.js` through a variable:
// `F=src/generated/out.js; rm -- "$F"`. No transcript names the file, only the shell knew it, and
// "nothing under src/generated/ was touched" was `ok` over every such run. Now the word the shell
// expands may be any path (`$F`): the row is unknown, on stdout and on every session file.
const SPEC = readSpec(`format: trace-spec/1
id: e2e/shell-expansions
expectations:
  - id: generated-untouched
    expect: {tool.absent: {subject: {glob: "file:src/generated/*"}}}
`)

const EXPANDED = 'unknown:operands_unread'
// Stdout's, then the session file's where the harness writes one this suite reads (opencode's are in its database).
const CASES = withExpected<readonly string[]>({
  claude: [EXPANDED, EXPANDED],
  codex: [EXPANDED, EXPANDED],
  opencode: [EXPANDED],
  pi: [EXPANDED, EXPANDED],
  gemini: [EXPANDED, EXPANDED],
  qwen: [EXPANDED, EXPANDED],
})

const programs = installedPrograms(CASES)

describe('a file removed through a shell variable, on every real harness', () => {
  it.each(CASES.map((entry) => [entry.launch.adapter, entry] as const))('%s', async (name, entry) => {
    const { workspace, target } = workspaceWithGenerated('shell-expansions', name)
    const calls = [{ tool: entry.tool, args: shellArguments(entry.key, 'F=src/generated/out.js; rm -- "$F"', 'a shell line') }]
    const run = await runCalls({ suite: 'shell-expansions', name, launch: entry.launch, wire: entry.wire, program: programs.get(name) as string, prompt: 'Tidy up.', calls, workspace })
    expect(existsSync(target)).toBe(false)
    const concluded: string[] = []
    for (const transcript of [run.stdout, ...sessionFilesOf(entry, run.result.scratch)]) {
      const row = (await checkTranscriptFile(SPEC, transcript)).expectations[0]
      concluded.push(`${row?.verdict}${row?.outcome.outcome === 'undecidable' ? `:${row.outcome.reason}` : ''}`)
      if (row?.outcome.outcome === 'undecidable' && row.outcome.reason === 'operands_unread') expect(row.outcome.words, transcript).toContain('$F')
    }
    expect(concluded).toEqual(entry.expected)
  })
})
