import type { HarnessAdapter } from '../../adapters/adapter.js'
import type { Emission } from '../events/types.js'
import { firstStreamDifference, launchRecordsEqual } from './compare.js'
import { ManualClock, type ControlClock } from './control/clock.js'
import { ControlSession } from './control/session.js'
import { debugList, traceNote } from './control/trace-note.js'
import { readVectorFile, vectorFile, type CommandTrigger, type LoadedVector } from './manifest.js'
import type { VectorCheck } from './run-vector.js'

type ControlVector = Extract<LoadedVector, { kind: 'control' }>

/** What one control run observed: the whole ordered trace, the stream, and both sides of the child's stdin. */
export interface ControlObservation {
  trace: string[]
  stream: string
  written: string[]
  received: string[]
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index])
}

// `after: {event, call_id}` matches an event whose named fields all hold those values.
function triggeredBy(emission: Emission, after: Record<string, unknown>): boolean {
  const fields = emission as Record<string, unknown>
  return Object.entries(after).every(([key, value]) => launchRecordsEqual(value, fields[key]))
}

function describeTrigger(trigger: CommandTrigger): string {
  return 'at' in trigger ? 'at start' : `after ${JSON.stringify(trigger.after)}`
}

/**
 * C3: starts the adapter's child on the vector's fake-vendor script, sends the vector's commands
 * when their trigger event is delivered, and compares the **whole** ordered trace and **every**
 * line written to the child — a vector that checked only the happy event would pass while the
 * decision never reached the child. The child's own echo must equal what the driver wrote.
 */
export async function runControlVector(vector: ControlVector, adapter: HarnessAdapter, clock: ControlClock = new ManualClock()): Promise<VectorCheck> {
  const fail = (detail: string, actual?: unknown): VectorCheck => ({
    outcome: { id: vector.id, tier: vector.tier, passed: false, detail },
    expected: { trace: vector.expected.trace, written: vector.expected.written },
    actual,
  })
  if (!adapter.control) return fail(`the ${adapter.id} adapter has no control seam; its control commands are refused with UNSUPPORTED_CONTROL`)

  const session = ControlSession.start(adapter, vectorFile(vector, vector.inputs.script), {
    run: vector.inputs.run,
    decisions: vector.inputs.decisions,
    clock,
    cwd: vector.dir,
  })
  const observed: ControlObservation = { trace: [], stream: '', written: session.written, received: [] }
  const triggers = vector.inputs.commands
  const fired = new Set<number>()
  let problem: string | undefined
  try {
    for (const [index, trigger] of triggers.entries()) {
      if (!('at' in trigger)) continue
      fired.add(index)
      await session.send(trigger.send, trigger.id)
    }
    for (let event = await session.next(); event; event = await session.next()) {
      observed.trace.push(traceNote(event.emission))
      observed.stream += event.line
      for (const [index, trigger] of triggers.entries()) {
        if (fired.has(index) || 'at' in trigger || !triggeredBy(event.emission, trigger.after)) continue
        fired.add(index)
        await session.send(trigger.send, trigger.id)
      }
    }
  } catch (error) {
    problem = (error as Error).message
  }
  const end = await session.end()
  observed.received = end.received
  const actual = { trace: observed.trace, written: [...observed.written] }

  if (end.timedOut) return fail('the fake vendor did not finish within its time limit and was killed', actual)
  if (problem !== undefined) return fail(problem, actual)
  const unsent = triggers.findIndex((_, index) => !fired.has(index))
  if (unsent !== -1) return fail(`the command ${describeTrigger(triggers[unsent] as CommandTrigger)} was never sent: no event matched`, actual)
  if (!sameList(observed.trace, vector.expected.trace)) {
    return fail(`trace was ${debugList(observed.trace)}, expected ${debugList(vector.expected.trace)}`, actual)
  }
  if (!sameList(observed.written, vector.expected.written)) {
    return fail(`written to the child was ${debugList(observed.written)}, expected ${debugList(vector.expected.written)}`, actual)
  }
  if (!sameList(observed.received, observed.written)) {
    return fail(`the child received ${debugList(observed.received)}, and the driver wrote ${debugList(observed.written)}`, actual)
  }
  if (end.exitCode !== 0) return fail(`the fake vendor exited ${end.exitCode ?? `on ${end.signal ?? 'a signal'}`}`, actual)
  if (vector.expected.events !== undefined) {
    const expected = readVectorFile(vector, vector.expected.events)
    const difference = firstStreamDifference(expected, observed.stream)
    if (difference !== undefined) return { ...fail(difference), expected, actual: observed.stream }
  }
  return { outcome: { id: vector.id, tier: vector.tier, passed: true, detail: '' }, expected: { trace: vector.expected.trace, written: vector.expected.written }, actual }
}
