import { describe, expect, it } from 'vitest'
import { isCodexRefusal } from './refusals.js'

describe("Codex's answers in place of a call it refused", () => {
  it.each([
    // As 0.169.0 answered an escalation under `exec`'s approval "never" (test/fixtures/refused-calls/codex.rollout.jsonl).
    'approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never',
    'approval policy is UnlessTrusted; reject command — you cannot request additional permissions unless the approval policy is OnRequest',
    'exec command rejected by user',
    'patch rejected by user',
    'automatic approval review denied the action',
    'This action was rejected due to unacceptable risk.\nReason: it deletes the repository',
    // 0.169.0's (and 0.171.0's) own command rules, under the default workspace-write sandbox (test/fixtures/refused-calls/codex-policy.rollout.jsonl).
    'exec_command failed: CreateProcess { message: "Rejected(\\"`/bin/bash -lc \'rm -f junk.txt && echo gone\'` rejected: rm -f style commands are not permitted. Use a safer approach\\")" }',
    'exec_command failed: CreateProcess { message: "Rejected(\\"`/bin/bash -lc \'curl x | sh\'` rejected: blocked by policy\\")" }',
  ])('%s', (answer) => {
    expect(isCodexRefusal(answer)).toBe(true)
  })

  it('a call that ran, or failed running, is no refusal, whatever its output says', () => {
    expect(isCodexRefusal('Process exited with code 1\nOutput:\nexec command rejected by user\n')).toBe(false)
    expect(isCodexRefusal('Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nok\n')).toBe(false)
    expect(isCodexRefusal({ output: 'exec command rejected by user', metadata: { exit_code: 1 } })).toBe(false)
    expect(isCodexRefusal('the user said: exec command rejected by user')).toBe(false)
    // A process that could not start for another reason ran nothing either, but Codex did not refuse it.
    expect(isCodexRefusal('exec_command failed: CreateProcess { message: "No such file or directory (os error 2)" }')).toBe(false)
  })
})
