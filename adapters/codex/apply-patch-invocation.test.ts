import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertPath } from '../../test/helpers/project.js'
import { interceptedApplyPatch } from './apply-patch-invocation.js'

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch'
const HEREDOC = `apply_patch <<'EOF'\n${PATCH}\nEOF`

describe('the apply_patch Codex runs in a shell call’s place', () => {
  it.each([
    ['exec_command', { cmd: HEREDOC }, { input: PATCH }],
    ['exec_command', { cmd: `${HEREDOC}\n` }, { input: PATCH }],
    ['exec_command', { cmd: `applypatch <<EOF\n${PATCH}\n\nEOF` }, { input: PATCH }],
    ['exec_command', { cmd: `cd sub && ${HEREDOC}` }, { input: PATCH, workdir: 'sub' }],
    ['exec_command', { cmd: `cd "my dir" && ${HEREDOC}` }, { input: PATCH, workdir: 'my dir' }],
    ['shell', { command: ['apply_patch', PATCH] }, { input: PATCH }],
    ['shell', { command: ['bash', '-lc', HEREDOC] }, { input: PATCH }],
    ['shell', { command: ['/bin/zsh', '-c', HEREDOC] }, { input: PATCH }],
    ['shell_command', { command: HEREDOC }, { input: PATCH }],
  ])('%s %j runs as apply_patch', (name, input, expected) => {
    expect(interceptedApplyPatch(name, input)).toEqual({ name: 'apply_patch', input: expected })
  })

  it.each([
    // Only the whole statement is Codex's: anything before or after it runs in a shell.
    ['exec_command', { cmd: `echo start; ${HEREDOC}` }],
    ['exec_command', { cmd: `${HEREDOC}\necho done` }],
    ['exec_command', { cmd: `cd sub || ${HEREDOC}` }],
    ['exec_command', { cmd: `cd -P sub && ${HEREDOC}` }],
    ['exec_command', { cmd: `'apply_patch' <<'EOF'\n${PATCH}\nEOF` }],
    ['exec_command', { cmd: `cat patch.diff | apply_patch` }],
    ['exec_command', { cmd: 'apply_patch' }],
    ['shell', { command: ['bash', '-x', '-lc', HEREDOC] }],
    ['shell', { command: ['fish', '-c', HEREDOC] }],
    ['command_execution', { command: HEREDOC }],
    ['write_stdin', { chars: HEREDOC }],
  ])('%s %j runs as named', (name, input) => {
    expect(interceptedApplyPatch(name, input)).toBeUndefined()
  })

  it('reads a real Codex 0.58 rollout’s `bash -lc "apply_patch <<PATCH"` calls as the file edits they were', async () => {
    const events = await convertPath(resolve(import.meta.dirname, '../../test/fixtures/wild/codex-rollout/acidicsoil_rollout-0.58.0.jsonl'))
    const patches = events.filter((event) => event.event === 'tool.requested' && event.name === 'apply_patch')
    expect(patches.map((event) => event.event === 'tool.requested' && [event.call_id, event.operations, event.subjects])).toEqual([
      ['call_lfCwuU2mObc6TfAufhHsRVVs', ['file.edit'], ['file:components/chat/chat-helpers/index.ts']],
      ['call_WFt5cO7KuouOdcWkDjn5K63T', ['file.edit'], ['file:components/chat/chat-helpers/index.ts']],
    ])
  })
})
