import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defineLaunch } from '../../adapters/launch/declaration.js'
import { findLaunch } from '../../adapters/launch/launches.js'
import { declaredLaunchInputsSchema, planDeclaredRun } from '../../adapters/launch/plan.js'
import { launchRecordsEqual } from '../../src/contract/compare.js'
import { loadVectors, readVectorFile, type LoadedVector } from '../../src/contract/manifest.js'

// The C1 launch vectors of the harnesses that launch through their declaration alone (pi,
// opencode: readers and a declaration, no registered contract adapter): the declaration's plan
// for the vector's fixed inputs against the recorded launch, compared as C1 compares (parsed JSON).
// The e2e suites hold each real run to the same planner, so the vector pins what really ran.
// They live outside vectors/ (whose every vector runs against a registered contract adapter).
const DECLARED_LAUNCH_VECTORS = join(import.meta.dirname, '..', 'fixtures', 'launch-vectors')
const vectors = ['pi', 'opencode'].flatMap((adapter) => loadVectors(join(DECLARED_LAUNCH_VECTORS, adapter)).filter((vector) => vector.kind === 'launch'))

function planFor(vector: LoadedVector, declaration = findLaunch(vector.adapter)): unknown {
  if (!declaration || vector.kind !== 'launch') throw new Error(`no declared launch for ${vector.adapter}`)
  return planDeclaredRun(declaration, declaredLaunchInputsSchema.parse(vector.inputs.launch))
}

describe('C1 launch vectors of the declared-only harnesses', () => {
  it('exist for pi and opencode', () => {
    expect(vectors.map((vector) => [vector.adapter, vector.id, vector.tier])).toEqual([
      ['pi', 'c1-pi-launch', 'c1'],
      ['opencode', 'c1-opencode-launch', 'c1'],
    ])
  })

  it.each(vectors.map((vector) => [vector.id, vector] as const))('%s: the declaration plans exactly the recorded launch', (_id, vector) => {
    if (vector.kind !== 'launch') throw new Error('not a launch vector')
    const expected: unknown = JSON.parse(readVectorFile(vector, vector.expected.record))
    expect(launchRecordsEqual(expected, planFor(vector))).toBe(true)
  })

  it('fails when the declaration drifts from the recorded launch (pi without PI_OFFLINE)', () => {
    const vector = vectors.find((candidate) => candidate.adapter === 'pi') as LoadedVector
    if (vector.kind !== 'launch') throw new Error('not a launch vector')
    const pi = findLaunch('pi')
    if (!pi) throw new Error('no pi launch')
    const { PI_OFFLINE: _dropped, ...env } = pi.env
    const drifted = defineLaunch({ ...pi, env })
    const expected: unknown = JSON.parse(readVectorFile(vector, vector.expected.record))
    expect(launchRecordsEqual(expected, planFor(vector, drifted))).toBe(false)
  })

  it('plans no launch for a wire the declaration does not speak', () => {
    const opencode = findLaunch('opencode')
    if (!opencode) throw new Error('no opencode launch')
    expect(() => planDeclaredRun(opencode, { program: 'opencode', prompt: 'p', workspace: '/w', root: '/s', baseUrl: 'http://127.0.0.1:1/v1', wire: 'anthropic-messages', nodeBin: '/n' })).toThrow(
      'opencode speaks no anthropic-messages wire (it speaks openai-chat)',
    )
  })
})
