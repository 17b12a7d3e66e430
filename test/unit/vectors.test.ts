import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { findAdapter } from '../../adapters/registry.js'
import { loadVectors, vectorFile } from '../../src/contract/manifest.js'
import { runVector } from '../../src/contract/run-vector.js'
import { readEventTextOrThrow } from '../../src/events/read.js'
import { builtInVectorsDir } from '../../src/util/package-info.js'

const vectors = loadVectors(builtInVectorsDir())

describe('the project vectors', () => {
  it('exist for b10x and cover every loop kind and every stop kind', () => {
    const b10x = vectors.filter((vector) => vector.adapter === 'b10x')
    expect(b10x.length).toBeGreaterThanOrEqual(20)
    const kinds = new Set<string>()
    const stops = new Set<string>()
    for (const vector of b10x) {
      if (vector.kind !== 'replay') continue
      for (const line of readFileSync(vectorFile(vector, vector.inputs.record), 'utf8').split('\n')) {
        try {
          const record = JSON.parse(line) as { kind?: unknown; stop?: { kind?: unknown } }
          if (typeof record.kind === 'string') kinds.add(record.kind)
          if (typeof record.stop?.kind === 'string' && record.kind === 'finished') stops.add(record.stop.kind)
        } catch {
          // Deliberately unreadable lines are part of the corpus.
        }
      }
    }
    // harness notes §2: the 22 loop kinds, the pre-loop refusal and the session line.
    for (const kind of [
      'credential-renewed', 'started', 'rates', 'turn-started', 'turn-retried', 'compacted', 'text-delta', 'reasoning-delta',
      'tool-arguments-delta', 'tool-requested', 'approval-required', 'approval-resolved', 'tool-completed', 'usage', 'cost',
      'warning', 'answered', 'delegate-started', 'delegate-finished', 'delegated', 'hook-ran', 'finished', 'refused', 'session',
    ]) {
      expect(kinds, kind).toContain(kind)
    }
    for (const stop of [
      'completed', 'max-turns', 'max-input-tokens', 'max-output-tokens', 'max-cost', 'budget-unobservable', 'deadline',
      'cancelled', 'awaiting-approval', 'provider-incomplete', 'unstructured',
    ]) {
      expect(stops, stop).toContain(stop)
    }
  })

  it.each(vectors.map((vector) => [vector.id, vector] as const))('%s passes against its adapter', async (_, vector) => {
    const adapter = findAdapter(vector.adapter)
    expect(adapter).toBeDefined()
    if (!adapter) return
    const outcome = await runVector(vector, adapter)
    expect(outcome.detail).toBe('')
    expect(outcome.passed).toBe(true)
  })

  it.each(vectors.filter((vector) => vector.kind === 'replay').map((vector) => [vector.id, vector] as const))(
    '%s: the expected stream is one the strict reader accepts',
    (_, vector) => {
      if (vector.kind !== 'replay') return
      expect(() => readEventTextOrThrow(readFileSync(vectorFile(vector, vector.expected.events), 'utf8'))).not.toThrow()
    },
  )
})
