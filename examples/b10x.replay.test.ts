import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadVectors, replayVector, firstStreamDifference, readEventText, streamCompleteness, vectorFile } from 'vitest-harness'
import { findAdapter } from 'vitest-harness/adapters'

// Every b10x replay vector the package ships: the recorded loop in, the event stream out, byte
// for byte. The replayed streams are written to demo-output/replays/ for a person to read.
const vectorsRoot = new URL('../vectors/b10x', import.meta.url)
const outDir = join(process.env['VITEST_HARNESS_DEMO_OUT'] ?? 'demo-output', 'replays')
const adapter = findAdapter('b10x')

describe('b10x: recorded loop → metaharness.event/1, byte for byte', () => {
  for (const vector of loadVectors(vectorsRoot.pathname)) {
    if (vector.kind !== 'replay') continue
    it(vector.id, () => {
      if (!adapter) throw new Error('the b10x adapter is not registered')
      const stream = replayVector(vector, adapter)
      mkdirSync(outDir, { recursive: true })
      writeFileSync(join(outDir, `${vector.id}.jsonl`), stream)
      const expected = readFileSync(vectorFile(vector, vector.expected.events), 'utf8')
      expect(firstStreamDifference(expected, stream)).toBeUndefined()
      const { events, diagnostics } = readEventText(stream)
      expect(diagnostics).toEqual([])
      // Replays carry no stream.closed: the adapter never claims a run it only read was closed.
      expect(streamCompleteness(events).kind).toBe('truncated')
    })
  }
})
