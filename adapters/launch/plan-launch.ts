import { z } from 'zod'
import type { LaunchPlan } from '../types.js'
import { WIRES, type LaunchDeclaration } from './declaration.js'

/**
 * The fixed inputs a declared launch is planned from: everything `launchHarness` would otherwise
 * take from the moment (the provider's port, the scratch root, the node on disk). A C1 launch
 * vector names these, so the planned argv and environment can be compared byte for byte.
 */
export const declaredLaunchInputsSchema = z.strictObject({
  program: z.string().min(1),
  prompt: z.string(),
  workspace: z.string().min(1),
  scratch: z.string().min(1),
  baseUrl: z.string().url(),
  wire: z.enum(WIRES),
  model: z.string().min(1).default('vitest-harness-model'),
  nodeBin: z.string().min(1),
})
export type DeclaredLaunchInputs = z.input<typeof declaredLaunchInputsSchema>

/** The launch a declaration builds: the program, argv and constructed environment, plus the files and directories it writes under the scratch root first. */
export interface DeclaredLaunchPlan extends LaunchPlan {
  readonly files: { readonly path: string; readonly content: string }[]
  readonly directories: string[]
}

/**
 * What an Anthropic client takes as its base URL (it adds `/v1/messages` itself): the provider's
 * base URL without its `/v1`, so a scope's path prefix (`/__scope/<id>`) survives — the provider's
 * own `origin`.
 */
export function originOf(baseUrl: string): string {
  const url = new URL(baseUrl)
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`
}

function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\{(prompt|workspace|root|baseUrl|origin|model|nodeBin)\}/g, (_, key: string) => values[key] as string)
}

/** The declaration's launch for these inputs, or why it has none (a wire it does not speak). Pure: nothing is written or run. */
export function planDeclaredLaunch(declaration: LaunchDeclaration, raw: DeclaredLaunchInputs): DeclaredLaunchPlan | { problem: string } {
  const parsed = declaredLaunchInputsSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { problem: `VH_LAUNCH_INPUTS at ${issue?.path.join('.') || 'inputs'}: ${issue?.message ?? 'invalid launch inputs'}` }
  }
  const inputs = parsed.data
  const binding = declaration.bindings[inputs.wire]
  if (!binding) {
    const wires = Object.keys(declaration.bindings).join(', ') || 'none'
    return { problem: `${declaration.adapter} speaks no ${inputs.wire} wire (it speaks ${wires})` }
  }
  const values: Record<string, string> = {
    prompt: inputs.prompt,
    workspace: inputs.workspace,
    root: inputs.scratch,
    baseUrl: inputs.baseUrl,
    origin: originOf(inputs.baseUrl),
    model: inputs.model,
    nodeBin: inputs.nodeBin,
  }
  const args = declaration.argv.flatMap((word) => (word === '{binding}' ? binding.args.map((arg) => substitute(arg, values)) : [substitute(word, values)]))
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...declaration.env, ...binding.env })) env[key] = substitute(value, values)
  return {
    program: inputs.program,
    args,
    env,
    files: binding.files.map((file) => ({ path: file.path, content: substitute(file.content, values) })),
    directories: [...declaration.directories],
  }
}
