import { describe, expect, it } from 'vitest'
import { hermesAnswer, hermesOutcome } from './outcome.js'

const row = (answer: object) => JSON.stringify(answer)

describe('hermesOutcome: what a tool row’s own answer says of the call', () => {
  it.each([
    ['terminal, exit 0', row({ output: 'ok', exit_code: 0, error: null }), { isError: false, exitCode: 0 }],
    ['terminal, exit 128 with no meaning', row({ output: 'fatal: …', exit_code: 128, error: null }), { isError: true, exitCode: 128 }],
    ['terminal, an empty grep hermes calls no error', row({ output: '', exit_code: 1, error: null, exit_code_meaning: 'No matches found (not an error)' }), { isError: false, exitCode: 1 }],
    ['terminal, a meaning that is only "often normal"', row({ output: '', exit_code: 1, error: null, exit_code_meaning: "Non-zero exit (often normal — e.g. 'git diff' returns 1 when files differ)" }), { isError: null, exitCode: 1 }],
    ['terminal, exit 0 and an error', row({ output: '', exit_code: 0, error: 'timed out' }), { isError: true, exitCode: 0 }],
    ['patch that failed', row({ success: false, error: 'Could not find a match' }), { isError: true, exitCode: null }],
    ['patch that worked', row({ success: true, diff: '…' }), { isError: false, exitCode: null }],
    ['execute_code', row({ status: 'success', output: '…' }), { isError: false, exitCode: null }],
    ['read_file of a missing file', row({ content: '', error: 'File not found: x' }), { isError: true, exitCode: null }],
    ['read_file', row({ content: '1|x', total_lines: 1 }), { isError: null, exitCode: null }],
    ['text, not JSON', 'done', { isError: null, exitCode: null }],
  ])('%s', (_name, content, expected) => {
    expect(hermesOutcome(hermesAnswer(content))).toEqual(expected)
  })
})
