import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkAnyFormatText } from '../../src/trace/check/check.js'
import { specOf } from '../helpers/trace.js'

// "The final answer says …" is a claim about the run's last answer: the last text a transcript holds
// is that answer only where the run ended after it. Codex's rollout proves no closure, and its reader
// writes the run's terminal record at the stream's end from the last `task_complete`; a rollout cut
// short in a later turn holds that turn's text after the last `task_complete`, and the run may have
// answered again. Over the real rollout of the e2e suite's scripted run (its timestamps, normalised
// away in the committed copy, put back one second apart).
const ROLLOUT = resolve(import.meta.dirname, '..', 'e2e', 'fixtures', 'codex', 'rollout.jsonl')
const SPEC = specOf('final-answer', [{ 'text.matches': { contains: 'hello harness' } }, { 'text.matches': { contains: 'tests pass' } }])

function timed(lines: string[]): string {
  return lines.map((line, index) => line.replace('"<timestamp>"', JSON.stringify(new Date(Date.UTC(2026, 10, 29, 10, 0, index)).toISOString()))).join('\n') + '\n'
}

const recorded = readFileSync(ROLLOUT, 'utf8').trimEnd().split('\n')
const verdicts = (text: string) => checkAnyFormatText(SPEC, text, { from: 'codex/rollout-jsonl' }).expectations.map((row) => (row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome))

describe('the final answer of a Codex rollout', () => {
  it('is the last text where the run completed after it: ok where it quotes the file, a gap where it does not', () => {
    expect(verdicts(timed(recorded))).toEqual(['ok', 'gap'])
  })

  it('is not proven where a later turn was cut short after its own text: both rows unknown', () => {
    const secondTurn = [
      '{"timestamp":"<timestamp>","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Now run the tests."}]}}',
      '{"timestamp":"<timestamp>","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Running them; the file says: hello harness."}]}}',
    ]
    expect(verdicts(timed([...recorded, ...secondTurn]))).toEqual(['unknown:stream_not_closed', 'unknown:stream_not_closed'])
  })
})
