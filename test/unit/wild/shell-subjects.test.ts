import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PIPED_SCRIPT } from '../../../adapters/shared/shell.js'
import { readTranscriptAsEvents } from '../../../adapters/transcript/read.js'
import type { Emission } from '../../../src/events/types.js'
import { checkTranscriptFile } from '../../../src/trace/check/check.js'
import { claudeToolRun, rowOf, specOf } from '../../helpers/trace.js'
import { WILD, wildEntries } from '../../helpers/wild.js'

type ToolRequested = Extract<Emission, { event: 'tool.requested' }>

/** Every shell call of every corpus entry, with the entry it came from. */
async function shellCalls(): Promise<{ entry: string; call: ToolRequested }[]> {
  const calls: { entry: string; call: ToolRequested }[] = []
  const folders = readdirSync(WILD, { withFileTypes: true }).filter((entry) => entry.isDirectory())
  for (const folder of folders) {
    for (const path of wildEntries(folder.name)) {
      for await (const event of readTranscriptAsEvents(path, { run: 'wild' })) {
        if (event.event === 'tool.requested' && event.operations?.includes('shell')) calls.push({ entry: `${folder.name}/${path.slice(path.lastIndexOf('/') + 1)}`, call: event })
      }
    }
  }
  return calls
}

/** The command line a call ran, as its harness wrote it (a string, or an argv joined by spaces). */
function commandOf(call: ToolRequested): string | undefined {
  const input = call.input as Record<string, unknown> | null
  const value = input?.['command'] ?? input?.['cmd']
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.join(' ')
  return undefined
}

// The test's own here-document cut: from the line after `<<'X'` (or `<<X`, `<<"X"`, `<<-X`) to the line X.
function withoutHereDocumentBodies(line: string): string {
  const kept: string[] = []
  let delimiter: string | undefined
  for (const text of line.split('\n')) {
    if (delimiter !== undefined) {
      if (text.trim() === delimiter) delimiter = undefined
      continue
    }
    kept.push(text)
    const opened = /<<-?\s*\\?(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/.exec(text.replace(/<<</g, ''))
    if (opened) delimiter = opened[2]
  }
  return kept.join('\n')
}

/** A call's subjects of one kind (`proc:`, `file:`), without the prefix. */
const subjectsOf = (call: ToolRequested, kind: string): string[] => (call.subjects ?? []).filter((subject) => subject.startsWith(kind)).map((subject) => subject.slice(kind.length))
const programs = (call: ToolRequested): string[] => subjectsOf(call, 'proc:')
const files = (call: ToolRequested): string[] => subjectsOf(call, 'file:')

// Quotes and escapes are removed from the words a reader names; compare without them.
const withoutQuotes = (text: string): string => text.replace(/["'\\]/g, '')

/** Each subject of `names` that the call's line does not spell, as `entry call: name`, over every call with a line. */
function unspelled(calls: readonly { entry: string; call: ToolRequested }[], names: (call: ToolRequested) => string[], spells: (plain: string, name: string) => boolean): string[] {
  const strays: string[] = []
  for (const { entry, call } of calls) {
    const line = commandOf(call)
    if (line === undefined) continue
    const plain = withoutQuotes(line)
    for (const name of names(call)) if (!spells(plain, name)) strays.push(`${entry} ${call.call_id}: ${name}`)
  }
  return strays
}

describe('the programs real shell lines ran (the wild corpus)', async () => {
  const calls = await shellCalls()
  const callOf = (entry: string, id: string): ToolRequested => {
    const found = calls.find((candidate) => candidate.entry === entry && candidate.call.call_id === id)
    if (!found) throw new Error(`no shell call ${id} in ${entry}`)
    return found.call
  }

  it('holds shell calls with here-documents, substitutions and wrappers', () => {
    const lines = calls.map(({ call }) => commandOf(call) ?? '')
    expect(calls.length).toBeGreaterThan(1000)
    expect(lines.filter((line) => /<<-?\s*['"]?[A-Za-z_]/.test(line)).length).toBeGreaterThan(10)
    expect(lines.filter((line) => line.includes('$(')).length).toBeGreaterThan(3)
    expect(lines.filter((line) => /(^|[|;&]\s*)(sudo|xargs|find)\b/.test(line)).length).toBeGreaterThan(10)
  })

  it('takes no program out of a here-document body that no shell reads', () => {
    const leaks: string[] = []
    for (const { entry, call } of calls) {
      const line = commandOf(call)
      if (line === undefined || !/<</.test(line) || /\b(bash|sh|zsh)\s+(-s\s*)?<</.test(line)) continue
      const outside = withoutHereDocumentBodies(line)
      for (const program of programs(call)) if (!outside.includes(program)) leaks.push(`${entry} ${call.call_id}: proc:${program}`)
    }
    expect(leaks).toEqual([])
  })

  it.each([
    // Claude Code's commit line: the message is a here-document inside a substitution.
    ['claude-session/sniffly-fed8ce56-bc79-401f-a83e-af084253362f.jsonl', 'toolu_01DP7Ppp3tvYZZUrUVaNgBmo', ['cat', 'git'], []],
    // A file written through a here-document: the redirection names it, the TypeScript body runs nothing.
    ['claude-session/viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 'toolu_01AzqmB5ZxZEs32uuHW2uifV', ['cat'], ['types/state.ts']],
    // `find … -exec grep … {} \; 2>/dev/null | head`: the escaped `;` ends -exec, not the command.
    ['hermes/weixin-glm5-terminal-session.json', 'call_5884c976ca3e4330966c39a5', ['cd', 'find', 'grep', 'head'], []],
    // `sudo sed -i … && sudo cat …`: what sudo ran is a program too.
    ['gemini-session/session-2025-12-26T04-47-66cc5744.json', 'run_shell_command-1766724852846-aeb8e4555c5f8', ['sudo', 'sed', 'cat'], ['/etc/pam.d/sudo']],
    // Codex on macOS (zsh): `src/app/(portal)/…` is a path with a glob group, not a subshell.
    ['codex-rollout/duet_codex-desktop-0.133.0-alpha.1.jsonl', 'call_hqSlQl45di0ViF4gpnuPF6zQ', ['nl', 'sed'], ['src/app/(portal)/org/[orgSlug]/(admin)/settings/actions.ts']],
    // `for f in …; do echo …; sed …; done`: the loop's words are not programs.
    ['codex-exec-json/heru_T-0010-SA-0004-reviewer.jsonl', 'item_7', ['echo', 'sed'], []],
    // OpenClaw's `python -m pytest …`: the module Python runs is the program, so "the tests ran" can hold.
    ['atif/v1.7-openclaw-clawbench-browser-research.json', 'tool_5rUPj6sj3QUBlfdbfpc0GmBm', ['python', 'pytest'], []],
    ['codex-rollout/hyperweave_codex-desktop-patches-0.116.0-alpha.10.jsonl', 'call_kEHhrOJj4sRnZJFPmA8osOFN', ['python3', 'hyperweave.serve.cli'], []],
    // The files the coreutils that change files are given: `sudo tee` over the PAM file, `rm -rf` then `mv`.
    ['gemini-session/session-2025-12-26T04-47-66cc5744.json', 'run_shell_command-1766725892422-25b66ac96ae95', ['printf', 'sudo', 'tee'], ['/etc/pam.d/sudo']],
    ['hermes/weixin-glm5-mcp-session.json', 'call_4b42e3e1b1c84842b8a67f0e', ['cd', 'rm', 'mv'], ['skills', 'skills_backup']],
    // macOS sed takes `-i ''` (the backup suffix, empty) before its script: the script names no file.
    ['pi/v1-compaction-session.jsonl', 'toolu_01RRNdiyWGccmrCrVLmCDagm', ['cd', 'sed'], ['packages/coding-agent/src/core/agent-session.ts']],
    // Codex reads with `sed -n '1,220p' f` and counts with `wc -c f`: both name the file.
    ['codex-exec-json/heru_T-0002-SA-0005-reviewer.jsonl', 'item_6', ['sed'], ['README.md']],
    ['codex-exec-json/heru_T-0008-SA-0005-reviewer.jsonl', 'item_8', ['wc'], ['tests/fixtures/codex_large_item_completed.jsonl']],
    // `rg --files` has no pattern: every operand is a path it lists.
    ['codex-rollout/hyperweave_codex-session-0.128.0.jsonl', 'call_SEtbahy1J9LwegYJk4QTormM', ['rg'], ['src/hyperweave', 'tests', '.github/workflows', 'README.md', 'pyproject.toml', 'CHANGELOG.md']],
  ])('%s %s runs %j and names %j', (entry, id, expectedPrograms, expectedFiles) => {
    const call = callOf(entry, id)
    expect(programs(call)).toEqual(expectedPrograms)
    expect(files(call)).toEqual(expectedFiles)
  })

  it('reads every shell line of the corpus to programs that its text names', () => {
    // A script piped in from a program's output is named as the expansion it is.
    expect(unspelled(calls, programs, (plain, program) => program === PIPED_SCRIPT || plain.includes(withoutQuotes(program)))).toEqual([])
  })

  it('names only files that its text names, and never a sed script or an option as one', () => {
    expect(unspelled(calls, files, (plain, file) => plain.includes(withoutQuotes(file)) && !/^s\/|^-/.test(file))).toEqual([])
  })

  it.each([
    // Codex's `ruff format` and `ruff check --fix` rewrite the folders and files they are given.
    ['codex-rollout/hyperweave_codex-desktop-patches-0.116.0-alpha.10.jsonl', 'call_dHg6JkuLSZ6PYPCbxRoYYzN9', 'file:tests/*', ['tests']],
    ['codex-rollout/hyperweave_codex-desktop-patches-0.116.0-alpha.10.jsonl', 'call_kcT5vrUNRNI5f0OhxeV2i54Z', 'file:src/hyperweave/serve/api.py', ['src/hyperweave/serve/api.py']],
    // A merge conflict resolved by `git checkout --theirs`: the file becomes the other side's.
    ['hermes/weixin-glm5-mcp-session.json', 'call_f9763916b0dc4bb68ae0e61b', 'file:README.md', ['README.md', '~/.hermes/README.md']],
    ['pi/v1-compaction-session.jsonl', 'toolu_01Vo6BhYjurfCwEhVPK57KCa', 'file:*CHANGELOG.md', ['/Users/badlogic/workspaces/pi-mono/packages/coding-agent/CHANGELOG.md', 'packages/coding-agent/CHANGELOG.md']],
    // A package manager records what it adds: `pnpm add` writes `package.json` and its lock.
    ['claude-session/viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 'toolu_01PYemKVD5MW8V6uRFS7AAaY', 'file:package.json', ['package.json']],
    ['codex-rollout/chat-to-html_codex-0.63.0.jsonl', 'call_wwZSFraCREm2Uq49EFnY6IAU', 'file:package-lock.json', ['package-lock.json']],
    // OpenClaw's `curl -L -o` saves the download where `-o` says.
    ['atif/v1.7-openclaw-wildclawbench-pdf-safety.json', 'tool_m8yCYw8sbOXglKkbncXp43mg', 'file:/tmp_workspace/*', ['/tmp_workspace/MAE.pdf']],
    // dsh's `node -e "…writeFileSync('started.txt', …)"`: code on the line that writes the path it quotes.
    ['dsh/cancel-tool-calls--session.jsonl', 'call_wait', 'file:*.txt', ['started.txt']],
  ])('%s %s wrote %s through a program that writes it: "never written" is unknown, not ok', (entry, id, glob, files) => {
    const line = commandOf(callOf(entry, id))
    if (line === undefined) throw new Error(`${entry} ${id} ran no command line`)
    // The real line, as a closed Claude Code run's one Bash call, so that only the line decides.
    const run = claudeToolRun([{ name: 'Bash', input: { command: line } }], { cwd: '/work' })
    const row = rowOf(`{tool.absent: {operations: [file.write, file.edit], subject: {glob: ${JSON.stringify(glob)}}}}`, run)
    expect(row.outcome).toMatchObject({ outcome: 'undecidable', reason: 'shell_files', files })
  })

  it('decides "the skills untouched" over Hermes moving its skills folder away: a gap, not a pass', async () => {
    const spec = specOf('wild/skills-untouched', { 'skills-untouched': { 'tool.absent': { subject: { glob: 'file:skills*' } } } })
    const report = await checkTranscriptFile(spec, `${WILD}/hermes/weixin-glm5-mcp-session.json`)
    expect(report.expectations[0]).toMatchObject({ verdict: 'gap' })
    const cited = report.expectations[0]?.outcome.outcome === 'gap' ? report.expectations[0].outcome.events : []
    expect(cited.length).toBeGreaterThan(0)
  })
})

