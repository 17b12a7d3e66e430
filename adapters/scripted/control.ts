import { writeSortedJson } from '../../src/events/json.js'
import type { ControlSeam } from '../control.js'
import { SCRIPTED_VENDOR_TIMEOUT_MS } from './declaration.js'
import { planScriptedLaunch } from './launch.js'
import { ScriptedProjector } from './read.js'

/**
 * The scripted fake vendor's control wire: a decision is `{"call_id":…,"decision":…}` and a
 * control is `{"control":"<command>"}`, both compact with sorted keys as serde_json writes a
 * `Value`. Decisions are answers, not controls: `tool.decide` has no control line.
 */
export const scriptedControlSeam: ControlSeam = {
  seam: 'hook',
  vendorTimeoutMs: SCRIPTED_VENDOR_TIMEOUT_MS,
  spawn: (script) => planScriptedLaunch({ script }),
  createProjector: (seam) => new ScriptedProjector(seam),
  decisionLine: (callId, decision) => writeSortedJson({ call_id: callId, decision }),
  controlLine: (command) => (command.command === 'tool.decide' ? undefined : writeSortedJson({ control: command.command })),
  awaitingCall(line) {
    if (!line.startsWith('{"awaiting":')) return undefined
    try {
      const value = JSON.parse(line) as { awaiting?: unknown }
      return typeof value.awaiting === 'string' ? value.awaiting : undefined
    } catch {
      return undefined
    }
  },
}
