import { z } from 'zod'
import type { HarnessAdapter } from '../adapter.js'
import { B10X_FLAG_SURFACE, B10X_OBLIGATIONS, B10X_UPSTREAM_VECTORS } from './contract.js'
import { B10X_ADAPTER_ID, B10X_PROGRAM, b10xCapabilities } from './declaration.js'
import { b10xChildPath, planB10xLaunch, type B10xLaunchInputs } from './launch.js'
import { B10xProjector } from './read.js'

const launchInputsSchema: z.ZodType<B10xLaunchInputs> = z.strictObject({
  program: z.string().optional(),
  baseUrl: z.string(),
  model: z.string(),
  workspace: z.string(),
  input: z.string(),
  home: z.string().optional(),
  scratch: z.string(),
  credential: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('api-key-file'), path: z.string() }),
      z.strictObject({ kind: z.literal('api-key-env'), name: z.string() }),
      z.strictObject({ kind: z.literal('oauth-token-file'), path: z.string(), pointer: z.string().optional() }),
      z.strictObject({ kind: z.literal('oauth-token-env'), name: z.string(), pointer: z.string().optional() }),
    ])
    .optional(),
  wire: z.enum(['openai-responses', 'anthropic-messages']).optional(),
  hooks: z.string().optional(),
  toolchain: z.string().optional(),
  driver: z.string().optional(),
  writeScope: z.array(z.string()).optional(),
  scopeSilent: z.boolean().optional(),
  context: z.array(z.string()).optional(),
  prices: z.string().optional(),
  confinement: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('daemon'), socket: z.string() }),
      z.strictObject({ kind: z.literal('embedded'), root: z.string() }),
    ])
    .optional(),
  cgroupRoot: z.string().optional(),
  allowProgram: z.array(z.string()).optional(),
  maxTurns: z.number().int().positive().optional(),
})

/** The b10x adapter: an observe-only, direct-provider reader of `b10x-harness --json`. */
export const b10xAdapter: HarnessAdapter<B10xLaunchInputs> = {
  id: B10X_ADAPTER_ID,
  program: B10X_PROGRAM,
  bannerPrefix: `${B10X_PROGRAM} `,
  capabilities: b10xCapabilities,
  createProjector: (seam) => new B10xProjector(seam),
  launch: { inputs: launchInputsSchema, plan: planB10xLaunch },
  childPath: b10xChildPath,
  flagSurface: B10X_FLAG_SURFACE,
  obligations: B10X_OBLIGATIONS,
  upstreamVectors: B10X_UPSTREAM_VECTORS,
}
