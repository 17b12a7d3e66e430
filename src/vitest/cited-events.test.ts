import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { call, closed, ended, metaharness, oneRow, opaque, result, start, text } from '../../test/helpers/trace.js'
import { convertTranscriptSync } from '../../adapters/transcript/read.js'
import { citedEventLines, citedEventLinesSync, MOST_EVENTS_SPELT_OUT } from './cited-events.js'
import { checkTranscriptFile } from '../trace/check/check.js'
import { readSpec } from '../trace/spec/read.js'
import type { ExpectationRow } from '../trace/report-types.js'
import { citedEvents } from '../report/check-view.js'
import { describeRow } from './trace-failure.js'

const WILD = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'wild')
const PI = join(WILD, 'pi', 'v1-custom-tool-session.jsonl')

const TRANSCRIPT = metaharness([
  start(),
  call('c-1', 'Bash', { command: 'rm -rf dist\necho \u001b[31mdone' }),
  result('c-1', { is_error: true, content: 'rm: dist: Permission denied\nexit 1' }),
  text('I removed the build folder.'),
  call('c-2', 'Write', { file_path: 'big.txt', content: 'x'.repeat(5000) }),
  result('c-2'),
  opaque(),
  ended(),
  closed(8),
])

describe('the events a failure spells out', () => {
  it('reads each cited event as one line: a call with its input, a result, a text, an unread record, the terminal record', async () => {
    const lines = await citedEventLines({ text: TRANSCRIPT }, [1, 2, 3, 7])
    expect(lines).toEqual([
      // JSON's escapes keep a newline or an escape sequence in the transcript off the terminal.
      '#1 call Bash {"command":"rm -rf dist\\necho \\u001b[31mdone"} (line 2)',
      '#2 result of c-1 (error): "rm: dist: Permission denied\\nexit 1" (line 3)',
      '#3 text: "I removed the build folder." (line 4)',
      '#7 run_outcome (line 8)',
    ])
    const [big, unread] = await citedEventLines({ text: TRANSCRIPT }, [4, 6])
    expect(big).toMatch(/^#4 call Write \{"file_path":"big.txt","content":"x{160,}… \(line 5\)$/)
    expect(big?.length).toBeLessThan(260)
    expect(unread).toBe('#6 unread record quantum_event (line 7)')
  })

  it('reads the last line even where no newline ends it', async () => {
    const unended = metaharness([start(), call('c-1', 'Bash', { command: 'ls' }), ended()]).trimEnd()
    expect(await citedEventLines({ text: unended }, [2])).toEqual(['#2 run_outcome (line 3)'])
    expect(citedEventLinesSync({ text: unended }, [2])).toEqual(['#2 run_outcome (line 3)'])
  })

  it('keeps the order cited and spells out only the first few', async () => {
    expect((await citedEventLines({ text: TRANSCRIPT }, [3, 1])).map((line) => line.split(' ')[0])).toEqual(['#3', '#1'])
    expect(await citedEventLines({ text: TRANSCRIPT }, [0, 1, 2, 3, 4, 5, 6, 7])).toHaveLength(MOST_EVENTS_SPELT_OUT)
  })

  it('reads a real converted transcript by path as it reads its text, streamed or whole', async () => {
    const cited = [114, 10, 34]
    const byPath = await citedEventLines(PI, cited)
    // No line: a conversion's lines are those of the stream it became, not of the file named.
    expect(byPath[0]).toBe('#114 call bash {"command":"cd /tmp && rm -rf skills && git clone https://github.com/anthropics/skills.git 2>&1"}')
    expect(byPath).toHaveLength(3)
    expect(await citedEventLines({ text: readFileSync(PI) }, cited)).toEqual(byPath)
    expect(citedEventLinesSync(PI, cited)).toEqual(byPath)
    // Its printed conversion, read as the native stream it is, numbers its events the same and has lines of its own.
    const printed = await citedEventLines({ text: convertTranscriptSync(PI, { from: 'pi-session-jsonl', run: 'convert' }) }, cited)
    expect(printed).toEqual([`${byPath[0]} (line 153)`, expect.stringMatching(/^#10 call /), expect.stringMatching(/^#34 call /)])
  })

  it('spells out nothing it cannot read again: events handed over in memory, a file gone since, an event past the end', async () => {
    expect(await citedEventLines({ events: [] }, [1])).toEqual([])
    const dir = mkdtempSync(join(tmpdir(), 'vh-cited-'))
    const path = join(dir, 'run.jsonl')
    writeFileSync(path, TRANSCRIPT)
    expect(await citedEventLines(path, [1])).toHaveLength(1)
    rmSync(path)
    expect(await citedEventLines(path, [1])).toEqual([])
    expect(citedEventLinesSync(path, [1])).toEqual([])
    expect(await citedEventLines({ text: TRANSCRIPT }, [99])).toEqual([])
    expect(await citedEventLines({ text: TRANSCRIPT }, [])).toEqual([])
  })
})

describe('the trace guide', () => {
  it('shows the failure its pi session gives, as a test prints it', async () => {
    const guide = readFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'guide', 'trace-specs.md'), 'utf8')
    const shown = /```text\n(gap no-rm-rf \(tool\.absent\)\n[^`]*)```/.exec(guide)?.[1]
    expect(shown, 'the guide shows the failure').toBeDefined()
    const spec = readSpec(oneRow('{tool.absent: {operations: [shell], args: {command: {regex: "rm -rf"}}}}').replace('id: only', 'id: no-rm-rf'))
    const row = (await checkTranscriptFile(spec, PI)).expectations[0] as ExpectationRow
    expect(`${describeRow(row, await citedEventLines(PI, citedEvents(row)))}\n`).toBe(shown)
  })
})
