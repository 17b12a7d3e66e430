import { describe, expect, it } from 'vitest'
import { claudeToolRun, rowOf } from '../../../test/helpers/trace.js'

/**
 * Claude Code's `PowerShell` tool on Windows: `\` separates a path's folders there, and the
 * cmdlets that write files are PowerShell's own. Read as a POSIX line, `src\generated\out.js` lost
 * its separators to escapes and `Set-Content` wrote nothing, so both rows below were `ok` over a
 * run that removed or wrote the file.
 */

function run(calls: { name: string; input: Record<string, string> }[]): string {
  return claudeToolRun(calls, { cwd: 'C:\\work', tools: ['PowerShell', 'Write'] })
}

const GENERATED_UNTOUCHED = '{tool.absent: {subject: {glob: "file:src/generated/*"}}}'
const TESTS_FIRST = '{order: {first: {operations: [file.write, file.edit], subject: {glob: "file:*tests/*"}}, before: {operations: [file.write, file.edit], subject: {glob: "file:*src/*"}}}}'

describe('PowerShell lines', () => {
  it('`Remove-Item src\\generated\\out.js` keeps its separators: the absence is unknown, not ok', () => {
    const row = rowOf(GENERATED_UNTOUCHED, run([{ name: 'PowerShell', input: { command: 'Remove-Item src\\generated\\out.js' } }]))
    expect(row).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['src/generated/out.js'] } })
  })

  it('`Set-Content` writes: "tests before code" is unknown where it wrote the code first, converted or read as it is', () => {
    const transcript = run([
      { name: 'PowerShell', input: { command: 'Set-Content -Path src\\a.ts -Value "export {}"' } },
      { name: 'Write', input: { file_path: 'C:\\work\\tests\\a.test.ts', content: 'test' } },
      { name: 'Write', input: { file_path: 'C:\\work\\src\\b.ts', content: 'export {}' } },
    ])
    for (const format of ['claude-code/stream-json', undefined] as const) {
      const row = rowOf(TESTS_FIRST, transcript, format === undefined ? {} : { format })
      expect(row, format).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', events: [1] } })
      expect(row.outcome.outcome === 'undecidable' && row.outcome.reason === 'shell_files' ? row.outcome.files : []).toContain('src/a.ts')
    }
  })

  it('a cmdlet that only reads, and a POSIX shell’s `del` (no such program there), write nothing: the order holds', () => {
    const then = [
      { name: 'Write', input: { file_path: 'C:\\work\\tests\\a.test.ts', content: 'test' } },
      { name: 'Write', input: { file_path: 'C:\\work\\src\\b.ts', content: 'export {}' } },
    ]
    expect(rowOf(TESTS_FIRST, run([{ name: 'PowerShell', input: { command: 'Get-Content src\\a.ts' } }, ...then])).verdict).toBe('ok')
    expect(rowOf(TESTS_FIRST, run([{ name: 'Bash', input: { command: 'del src/a.ts' } }, ...then])).verdict).toBe('ok')
  })
})
