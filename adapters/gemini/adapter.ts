import { z } from 'zod'
import type { HarnessAdapter } from '../adapter.js'
import { LaunchRefusal } from '../errors.js'
import { planDeclaredLaunch } from '../launch/plan.js'
import { lineProjectorOf } from '../shared/line-projector.js'
import type { LaunchPlan } from '../types.js'
import { GEMINI_ADAPTER_ID, GEMINI_PROGRAM, geminiCapabilities } from './declaration.js'
import { geminiLaunch } from './launch.js'
import { GeminiSessionProjector } from './session.js'

/** The fixed inputs a C1 vector plans a Gemini CLI launch from. */
export interface GeminiLaunchInputs {
  readonly program: string
  /** The loopback provider's base URL (`…/v1`); the CLI gets its origin. */
  readonly baseUrl: string
  readonly model: string
  readonly workspace: string
  readonly scratch: string
  readonly nodeBin: string
  readonly input: string
}

const launchInputsSchema: z.ZodType<GeminiLaunchInputs> = z.strictObject({
  program: z.string().min(1),
  baseUrl: z.string().min(1),
  model: z.string().min(1),
  workspace: z.string().min(1),
  scratch: z.string().min(1),
  nodeBin: z.string().min(1),
  input: z.string(),
})

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** The launch `launchHarness` runs for these inputs, from the one declaration. Gemini CLI takes plain http only on loopback, so another http host is refused. */
export function planGeminiLaunch(inputs: GeminiLaunchInputs): LaunchPlan {
  const url = URL.canParse(inputs.baseUrl) ? new URL(inputs.baseUrl) : undefined
  if (!url || (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))) {
    throw new LaunchRefusal('VH_LAUNCH_BASE_URL', `Gemini CLI 0.61 refuses GOOGLE_GEMINI_BASE_URL ${JSON.stringify(inputs.baseUrl)}: it must be https, or http on 127.0.0.1, localhost or [::1]`)
  }
  return planDeclaredLaunch(geminiLaunch, {
    prompt: inputs.input,
    workspace: inputs.workspace,
    root: inputs.scratch,
    baseUrl: inputs.baseUrl,
    wire: 'gemini',
    model: inputs.model,
    nodeBin: inputs.nodeBin,
    program: inputs.program,
  })
}

/** The Gemini CLI adapter: reads its session file (the projector) and its stream-json, and launches `gemini -p`. */
export const geminiAdapter: HarnessAdapter<GeminiLaunchInputs> = {
  id: GEMINI_ADAPTER_ID,
  program: GEMINI_PROGRAM,
  bannerPrefix: '',
  capabilities: geminiCapabilities,
  createProjector: (seam) => lineProjectorOf(new GeminiSessionProjector(seam)),
  launch: { inputs: launchInputsSchema, plan: planGeminiLaunch },
  declaration: geminiLaunch,
}
