import { describe, expect, it } from 'vitest'
import { readSpec } from '../../src/trace/spec/read.js'
import { installedPrograms, removeGenerated, withExpected } from './harness-shells.js'

// One shell call on every real harness, `rm <workspace>/src/generated/out.js`: the path absolute,
// as models often write it (Claude Code's own file tools always do). A spec names the folder
// relative to the project, "nothing under src/generated/ was touched" (`file:src/generated/*`). It
// was `ok` over every such run, the subject being the path as written. Where the transcript names
// the folder the session opened in, the path is read relative to it and the row is a gap; where
// it names none, the row is unknown, never ok.
const SPEC = readSpec(`format: trace-spec/1
id: e2e/path-spellings
expectations:
  - id: generated-untouched
    expect: {tool.absent: {subject: {glob: "file:src/generated/*"}}}
`)

// What each transcript concludes, its stdout's then its session file's: a gap where it names the
// folder the session opened in, unknown where it names none (Codex `exec --json`, opencode's
// `run --format json`, Gemini CLI's stream-json and session file). opencode's sessions are in its
// database, so only its stdout is read.
const GAP = 'gap'
const UNPLACED = 'unknown:session_folder_unknown'
const CASES = withExpected<readonly string[]>({
  claude: [GAP, GAP],
  codex: [UNPLACED, GAP],
  opencode: [UNPLACED],
  pi: [GAP, GAP],
  gemini: [UNPLACED, UNPLACED],
  qwen: [GAP, GAP],
})

const programs = installedPrograms(CASES)

describe('an absolute path, and a spec that names the folder relative to the project, on every real harness', () => {
  it.each(CASES.map((entry) => [entry.launch.adapter, entry] as const))('%s', async (name, entry) => {
    const concluded = await removeGenerated({ suite: 'path-spellings', shell: entry, program: programs.get(name) as string, line: (target) => `rm ${target}`, spec: SPEC })
    expect(concluded.map(({ said }) => said)).toEqual(entry.expected)
  })
})
