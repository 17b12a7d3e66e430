import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import { b10xAdapter } from '../../adapters/b10x/adapter.js'
import { scriptedAdapter } from '../../adapters/scripted/adapter.js'
import { SystemClock } from '../../src/contract/control/clock.js'
import { deadlineReason, driverDeadlineMs } from '../../src/contract/control/deadline.js'
import { gateCommand } from '../../src/contract/control/gate.js'
import { ControlSession } from '../../src/contract/control/session.js'
import { traceNote } from '../../src/contract/control/trace-note.js'
import { loadVectorManifest, loadVectors, type LoadedVector } from '../../src/contract/manifest.js'
import { runControlVector } from '../../src/contract/run-control-vector.js'
import { checkVector } from '../../src/contract/run-vector.js'
import { builtInVectorsDir } from '../../src/util/package-info.js'

const C3 = join(builtInVectorsDir(), 'scripted', 'c3')
type ControlVector = Extract<LoadedVector, { kind: 'control' }>

function control(id: string): ControlVector {
  const vector = loadVectorManifest(join(C3, id))
  if (vector.kind !== 'control') throw new Error(`${id} is not a control vector`)
  return vector
}

async function observe(id: string): Promise<{ passed: boolean; detail: string; trace: string[]; written: string[] }> {
  const check = await runControlVector(control(id), scriptedAdapter)
  const actual = check.actual as { trace: string[]; written: string[] }
  return { passed: check.outcome.passed, detail: check.outcome.detail, ...actual }
}

// A copy of a vector, its manifest optionally edited, so a test never touches the committed files.
function editedCopy(id: string, edit?: (manifest: string) => string): ControlVector {
  const dir = mkdtempSync(join(tmpdir(), 'vh-c3-'))
  cpSync(join(C3, id), dir, { recursive: true })
  const file = join(dir, 'vector.yaml')
  if (edit) {
    const before = readFileSync(file, 'utf8')
    const after = edit(before)
    expect(after).not.toBe(before)
    writeFileSync(file, after)
  }
  const vector = loadVectorManifest(dir)
  if (vector.kind !== 'control') throw new Error('not a control vector')
  return vector
}

describe('C3: the scripted fake vendor driven through the control seam', () => {
  it('allow: the decision line reaches the child, the call runs, the census counts one allow', async () => {
    const run = await observe('allow-lets-the-call-run')
    expect(run).toEqual({
      passed: true,
      detail: '',
      trace: [
        'session.started',
        'tool.requested decision_required=true',
        'tool.decided allow by=embedder',
        'command.result ok',
        'tool.result',
        'session.ended allowed=1 denied=0 replaced=0 abstained=0',
      ],
      written: ['{"call_id":"t1","decision":{"decision":"allow"}}'],
    })
  })

  it('deny: the reason the model is told is written to the child', async () => {
    const run = await observe('deny-carries-a-reason-the-model-is-told')
    expect(run.passed).toBe(true)
    expect(run.trace).toContain('tool.decided deny by=embedder')
    expect(run.trace.at(-1)).toBe('session.ended allowed=0 denied=1 replaced=0 abstained=0')
    expect(run.written).toEqual(['{"call_id":"t1","decision":{"decision":"deny","reason":"this step admits no shell"}}'])
  })

  it('replace: the new input is written, and the census counts a replace, not an allow', async () => {
    const run = await observe('replace-runs-the-call-with-a-different-input')
    expect(run.passed).toBe(true)
    expect(run.trace).toContain('tool.decided replace by=embedder')
    expect(run.trace.at(-1)).toBe('session.ended allowed=0 denied=0 replaced=1 abstained=0')
    expect(run.written).toEqual(['{"call_id":"t1","decision":{"decision":"replace","input":{"command":"ls -1"}}}'])
  })

  it("deadline: an unanswered call is denied by the driver's own deadline, strictly before the vendor's", async () => {
    const run = await observe('an-unanswered-call-is-denied-by-the-drivers-own-deadline')
    expect(run.passed).toBe(true)
    expect(run.trace).toEqual([
      'session.started',
      'tool.requested decision_required=true',
      'tool.decided deny by=deadline',
      'tool.result',
      'session.ended allowed=0 denied=1 replaced=0 abstained=0',
    ])
    expect(run.written).toEqual([JSON.stringify({ call_id: 't1', decision: { decision: 'deny', reason: deadlineReason(25_000, 30_000) } })])
  })

  it('unknown call: a decision for a call never presented is UNKNOWN_CALL and writes nothing', async () => {
    const run = await observe('a-decision-for-an-unopened-call-is-unknown-call')
    expect(run.passed).toBe(true)
    expect(run.trace[0]).toBe('command.result refused UNKNOWN_CALL')
    expect(run.written).toEqual([])
  })

  it('too late: a second decision for the same call is TOO_LATE and exactly one line reaches the child', async () => {
    const run = await observe('a-second-decision-for-the-same-call-is-too-late')
    expect(run.passed).toBe(true)
    expect(run.trace.slice(2, 5)).toEqual(['tool.decided allow by=embedder', 'command.result ok', 'command.result refused TOO_LATE'])
    expect(run.written).toEqual(['{"call_id":"t1","decision":{"decision":"allow"}}'])
  })

  it('interrupt: the deny is written first, then the control line', async () => {
    const run = await observe('interrupt-is-a-legal-answer-and-the-deny-is-written-first')
    expect(run.passed).toBe(true)
    expect(run.written).toEqual([
      '{"call_id":"t1","decision":{"decision":"deny","reason":"the run was interrupted before this call was decided, so nothing ran"}}',
      '{"control":"interrupt"}',
    ])
  })

  it.each(loadVectors(C3).map((vector) => [vector.id, vector] as const))('%s passes', async (_, vector) => {
    const check = await checkVector(vector, scriptedAdapter)
    expect(check.outcome.detail).toBe('')
    expect(check.outcome.passed).toBe(true)
    expect(check.outcome.tier).toBe('c3')
  })
})

describe('C3 vectors compare the whole trace and every written line', () => {
  it('an expected written line that differs by one character fails the vector, naming both lists', async () => {
    const vector = editedCopy('allow-lets-the-call-run', (text) => text.replace('\\"allow\\"}}"', '\\"allow\\" }}"'))
    const check = await runControlVector(vector, scriptedAdapter)
    expect(check.outcome.passed).toBe(false)
    expect(check.outcome.detail).toBe(
      'written to the child was ["{\\"call_id\\":\\"t1\\",\\"decision\\":{\\"decision\\":\\"allow\\"}}"], expected ["{\\"call_id\\":\\"t1\\",\\"decision\\":{\\"decision\\":\\"allow\\" }}"]',
    )
  })

  it('an expected trace that misses one event fails the vector', async () => {
    const vector = editedCopy('deny-carries-a-reason-the-model-is-told', (text) => text.replace('    - command.result ok\n', ''))
    const check = await runControlVector(vector, scriptedAdapter)
    expect(check.outcome.passed).toBe(false)
    expect(check.outcome.detail).toMatch(/^trace was \["session.started", .*"command.result ok".*\], expected \[/)
  })

  it('a command whose trigger never matches fails the vector instead of passing silently', async () => {
    const vector = editedCopy('allow-lets-the-call-run', (text) => text.replace('call_id: t1}, send', 'call_id: t9}, send'))
    const check = await runControlVector(vector, scriptedAdapter)
    expect(check.outcome.passed).toBe(false)
    expect(check.outcome.detail).toBe('the command after {"event":"tool.requested","call_id":"t9"} was never sent: no event matched')
  })

  it('a pinned event stream is compared byte for byte', async () => {
    const vector = editedCopy('allow-lets-the-call-run')
    const expected = join(vector.dir, 'events.expected.jsonl')
    writeFileSync(expected, readFileSync(expected, 'utf8').replace('"latency_ms":0', '"latency_ms":1'))
    const check = await runControlVector(vector, scriptedAdapter)
    expect(check.outcome.passed).toBe(false)
    expect(check.outcome.detail).toMatch(/^\$\.latency_ms: expected 1, got 0 \(line 3\)\nline 3: expected .*"latency_ms":1}, observed .*"latency_ms":0}$/)
  })
})

describe('the control session', () => {
  it('keeps the driver deadline strictly under the vendor timeout', () => {
    expect(driverDeadlineMs(30_000)).toBe(25_000)
    expect(driverDeadlineMs(4_000)).toBe(2_000)
    expect(driverDeadlineMs(1)).toBe(0)
    for (const vendor of [1, 2, 5_000, 5_001, 60_000]) expect(driverDeadlineMs(vendor)).toBeLessThan(vendor)
  })

  it('on a system clock, denies an unanswered call once the real deadline passes', async () => {
    const quick: HarnessAdapter = { ...scriptedAdapter, control: { ...scriptedAdapter.control!, vendorTimeoutMs: 120 } }
    const script = join(C3, 'an-unanswered-call-is-denied-by-the-drivers-own-deadline', 'script.jsonl')
    const session = ControlSession.start(quick, script, { run: 'rt', decisions: 'ask', clock: new SystemClock() })
    const decided = []
    for (let event = await session.next(); event; event = await session.next()) {
      if (event.emission.event === 'tool.decided') decided.push(event.emission)
    }
    const end = await session.end()
    expect(session.decisionDeadlineMs).toBe(60)
    expect(decided).toHaveLength(1)
    expect(decided[0]).toMatchObject({ decision: { decision: 'deny', reason: deadlineReason(60, 120) }, decided_by: 'deadline' })
    expect((decided[0] as { latency_ms: number }).latency_ms).toBeGreaterThanOrEqual(60)
    expect(end.received).toEqual(session.written)
    expect(end.exitCode).toBe(0)
  })

  it('writes the census of its own decisions into session.ended', async () => {
    const session = ControlSession.start(scriptedAdapter, join(C3, 'allow-lets-the-call-run', 'script.jsonl'), { run: 'c', decisions: 'ask' })
    const notes: string[] = []
    let ended: unknown
    for (let event = await session.next(); event; event = await session.next()) {
      notes.push(traceNote(event.emission))
      if (event.emission.event === 'tool.requested') {
        expect(await session.send({ command: 'tool.decide', call_id: 't1', decision: { decision: 'allow' } }, 'mine')).toEqual({ result: 'ok', applies_at: null })
      }
      if (event.emission.event === 'command.result') expect(event.line).toContain('"id":"mine"')
      if (event.emission.event === 'session.ended') ended = event.emission.census
    }
    await session.end()
    expect(ended).toEqual({ allowed: 1, denied: 0, replaced: 0, abstained: 0, by_seam: { hook: 1 }, by_decider: { embedder: 1 } })
    expect(notes).toContain('command.result ok')
  })

  it('refuses to start a control run for an adapter with no control seam', async () => {
    expect(() => ControlSession.start(b10xAdapter as HarnessAdapter, 'x', { run: 'r', decisions: 'ask' })).toThrow(/no control seam/)
    const check = await runControlVector(control('allow-lets-the-call-run'), b10xAdapter as HarnessAdapter)
    expect(check.outcome).toMatchObject({ passed: false, detail: expect.stringMatching(/b10x adapter has no control seam/) })
  })
})

describe('the command gate', () => {
  it('refuses what b10x does not honour with UNSUPPORTED_CONTROL, and lets halt through', () => {
    const capabilities = b10xAdapter.capabilities()
    expect(gateCommand(capabilities, { command: 'tool.decide', call_id: 't1', decision: { decision: 'allow' } })).toEqual({
      result: 'refused',
      refused: { code: 'UNSUPPORTED_CONTROL', reason: 'the b10x adapter cannot honour tool.decide' },
    })
    expect(gateCommand(capabilities, { command: 'steer', text: 'x' })?.result).toBe('refused')
    expect(gateCommand(capabilities, { command: 'halt', reason: 'stop' })).toBeUndefined()
  })

  it('checks well-formedness before support: an empty deny reason is MALFORMED on every adapter', () => {
    const deny = { command: 'tool.decide', call_id: 't1', decision: { decision: 'deny', reason: '  ' } } as const
    expect(gateCommand(b10xAdapter.capabilities(), deny)).toMatchObject({ refused: { code: 'MALFORMED' } })
    expect(gateCommand(scriptedAdapter.capabilities(), deny)).toMatchObject({ refused: { code: 'MALFORMED' } })
  })
})
