import { describe, expect, it } from 'vitest'
import { readSpec } from '../../src/trace/spec/read.js'
import { installedPrograms, removeGenerated, withExpected } from './harness-shells.js'

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
    const concluded = await removeGenerated({ suite: 'shell-expansions', shell: entry, program: programs.get(name) as string, line: () => 'F=src/generated/out.js; rm -- "$F"', spec: SPEC })
    for (const { transcript, row } of concluded) if (row.outcome.outcome === 'undecidable' && row.outcome.reason === 'operands_unread') expect(row.outcome.words, transcript).toContain('$F')
    expect(concluded.map(({ said }) => said)).toEqual(entry.expected)
  })
})
