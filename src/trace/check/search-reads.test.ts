import { describe, expect, it } from 'vitest'
import { claudeToolRun, rowOf } from '../../../test/helpers/trace.js'

/**
 * A search tool reads the files under the path it is given, as `grep -r` does in a shell line:
 * "never read `.env`" by `file.read` was `unknown` over `grep -r KEY .` and `ok` over Claude Code's
 * `Grep {pattern: "KEY", path: ".env"}`, whose answer is `.env`'s own lines. Its harness names the
 * call `search`, so a selector by `file.read` cannot see it; the call now leaves the row undecided
 * wherever what it searched may hold the file (`operands_unread`).
 */

const NEVER_READ_ENV = '{tool.absent: {operations: [file.read], subject: {glob: "file:*.env"}}}'
const NOTHING_READ = '{tool.absent: {operations: [file.read]}}'

const over = (expect_: string, name: string, input: Record<string, unknown>) => rowOf(expect_, claudeToolRun([{ name, input }]))

describe('a search tool under a selector by file.read', () => {
  it.each([
    [{ pattern: 'API_KEY', path: '.env' }, '.env'],
    [{ pattern: 'API_KEY', path: 'config/.env', output_mode: 'content' }, 'config/.env'],
    [{ pattern: 'API_KEY' }, './**'],
    [{ pattern: 'API_KEY', glob: '*.env' }, '**/*.env'],
    [{ pattern: 'API_KEY', path: '.', glob: '.env*' }, './**/.env*'],
  ])('Grep %j: "never read .env" is unknown, naming %s', (input, word) => {
    expect(over(NEVER_READ_ENV, 'Grep', input)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: expect.arrayContaining([word]) } })
  })

  it('read files, so "no file read" is unknown over it too', () => {
    expect(over(NOTHING_READ, 'Grep', { pattern: 'x', path: 'src' }).verdict).toBe('unknown')
  })

  it.each([
    ['Grep', { pattern: 'API_KEY', path: 'src' }],
    ['Grep', { pattern: 'API_KEY', glob: '*.ts' }],
    // A folder is read by the selector's letters, as `grep -r KEY config` is: whether it holds a `.env` is the tree's to say.
    ['Grep', { pattern: 'API_KEY', path: 'config' }],
    // A listing reads names, not contents; a search of the harness's own tools reads no file.
    ['Glob', { pattern: '**/.env' }],
    ['ToolSearch', { query: 'select:Read' }],
  ])('%s %j stays ok', (name, input) => {
    expect(over(NEVER_READ_ENV, name, input).verdict).toBe('ok')
  })
})
