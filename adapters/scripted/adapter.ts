import { z } from 'zod'
import type { HarnessAdapter } from '../adapter.js'
import { SCRIPTED_OBLIGATIONS } from './contract.js'
import { scriptedControlSeam } from './control.js'
import { SCRIPTED_ADAPTER_ID, SCRIPTED_PROGRAM, scriptedCapabilities } from './declaration.js'
import { planScriptedLaunch, scriptedChildPath, type ScriptedLaunchInputs } from './launch.js'
import { ScriptedProjector } from './read.js'

const launchInputsSchema: z.ZodType<ScriptedLaunchInputs> = z.strictObject({
  program: z.string().optional(),
  vendor: z.string().optional(),
  script: z.string(),
  decisions: z.enum(['ask', 'observe', 'frame']).optional(),
  frame: z.string().optional(),
  home: z.string().optional(),
})

/**
 * The `scripted` adapter: a **test double for the control seam**, not a real harness. It drives
 * `bin/scripted-vendor.js`, a fake vendor that plays a script, so the C3 control vectors run with
 * no vendor binary, no model and no network. Registered so its vectors run like any adapter's.
 */
export const scriptedAdapter: HarnessAdapter<ScriptedLaunchInputs> = {
  id: SCRIPTED_ADAPTER_ID,
  program: SCRIPTED_PROGRAM,
  bannerPrefix: `${SCRIPTED_PROGRAM} `,
  capabilities: scriptedCapabilities,
  createProjector: (seam) => new ScriptedProjector(seam),
  launch: { inputs: launchInputsSchema, plan: planScriptedLaunch },
  childPath: scriptedChildPath,
  control: scriptedControlSeam,
  obligations: SCRIPTED_OBLIGATIONS,
}
