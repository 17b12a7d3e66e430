import { join } from 'node:path'
import { packageRoot } from '../../src/util/package-info.js'
import { LaunchRefusal } from '../errors.js'
import type { LaunchPlan } from '../types.js'

const BASE_PATH = '/usr/local/bin:/usr/bin:/bin'

/** One launch of the scripted fake vendor. */
export interface ScriptedLaunchInputs {
  /** The interpreter that runs the fake. Default: this Node. */
  program?: string
  /** The fake vendor's own file. Default: the package's `bin/scripted-vendor.js`. */
  vendor?: string
  /** The script the fake plays. */
  script: string
  /** How calls are decided. `frame` is refused: the double has no frame enforcement. */
  decisions?: 'ask' | 'observe' | 'frame'
  /** A frame document put in force at launch. */
  frame?: string
  /** The operator's HOME, whose `.local/bin` leads the child's PATH. */
  home?: string
}

/** Where the package's fake vendor lives, from `src/` and from `dist/` alike. */
export function scriptedVendorPath(): string {
  return join(packageRoot(), 'bin', 'scripted-vendor.js')
}

/** The child's PATH given the HOME it runs with. */
export function scriptedChildPath(home?: string): string {
  return home ? `${home}/.local/bin:${BASE_PATH}` : BASE_PATH
}

/**
 * The launch record for fixed inputs, or a `LaunchRefusal`: a frame in observe mode would tell
 * the model "only these operations" while nothing enforced it, and frame mode is not delivered.
 */
export function planScriptedLaunch(inputs: ScriptedLaunchInputs): LaunchPlan {
  const decisions = inputs.decisions ?? 'ask'
  if (decisions === 'observe' && inputs.frame !== undefined) {
    throw new LaunchRefusal(
      'UNSUPPORTED_CONTROL',
      'decisions observe was given together with a frame: observe mode allows every call, so the frame would reach the model as "strictly only these operations" while nothing enforced it. Observe with no frame, or enforce the frame',
    )
  }
  if (decisions === 'frame') {
    throw new LaunchRefusal('UNSUPPORTED_CONTROL', 'the scripted adapter does not deliver frame mode; decide with ask or observe')
  }
  return {
    program: inputs.program ?? process.execPath,
    args: [inputs.vendor ?? scriptedVendorPath(), inputs.script],
    env: { LANG: 'C.UTF-8', PATH: scriptedChildPath(inputs.home) },
  }
}
