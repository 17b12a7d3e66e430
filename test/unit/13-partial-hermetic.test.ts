import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { replayB10xLoop } from '../../adapters/b10x/index.js'
import { ScriptedProjector } from '../../adapters/scripted/index.js'
import { replayText } from '../../adapters/replay.js'
import { readEventText } from '../../src/events/read.js'
import { firstStreamDifference } from '../../src/public/index.js'
import { REPO } from '../helpers/run-suite.js'

// Issue 13: `hermetic: { mode, decisions }` type-checked, and the writer emitted it without its four
// rows, so the README's first example differed from its golden file on line 1.
const GOLDEN = join(REPO, 'vectors', 'b10x', 'golden-loop-record')
const SEAM = { run: 'golden', harnessVersion: '0.12.1', model: 'b10x-emulated', cwd: '/scratch/vh/work', transcriptPath: '/scratch/vh/loop.jsonl' }

function sessionHermetic(stream: string): unknown {
  const first = stream.split('\n')[0] as string
  return (JSON.parse(first) as { hermetic: unknown }).hermetic
}

describe('a partial hermetic attestation is completed, not written short', () => {
  it('replays the golden loop byte for byte from { mode, decisions } alone', () => {
    const stream = replayB10xLoop(readFileSync(join(GOLDEN, 'loop.jsonl'), 'utf8'), { ...SEAM, hermetic: { mode: 'strict', decisions: 'observe' } })
    expect(firstStreamDifference(readFileSync(join(GOLDEN, 'loop.expected.jsonl'), 'utf8'), stream)).toBeUndefined()
  })

  it('fills the rows it leaves out with [] and keeps the rows it gives', () => {
    const stream = replayB10xLoop(readFileSync(join(GOLDEN, 'loop.jsonl'), 'utf8'), { ...SEAM, hermetic: { mode: 'on', imposed: ['network'] } })
    expect(sessionHermetic(stream)).toEqual({ mode: 'on', decisions: 'observe', imposed: ['network'], unavailable: [], ambient_inputs: [], installed_plugins: [] })
  })

  it('takes the reader’s own default decisions when the partial one leaves them out (the scripted double asks)', () => {
    const record = readFileSync(join(REPO, 'vectors', 'scripted', 'scripted-record', 'record.jsonl'), 'utf8')
    const stream = replayText(new ScriptedProjector({ run: 'r', hermetic: { mode: 'strict' } }), record, 'r')
    expect(sessionHermetic(stream)).toEqual({ mode: 'strict', decisions: 'ask', imposed: [], unavailable: [], ambient_inputs: [], installed_plugins: [] })
    // And the stream still reads as metaharness.event/1.
    expect(readEventText(stream).diagnostics).toEqual([])
  })
})
