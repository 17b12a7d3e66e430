import { z } from 'zod'
import type { LaunchPlan } from '../types.js'
import { WIRES, type LaunchDeclaration, type ModelBinding, type Wire } from './declaration.js'

/** The facts a declared launch is planned from: every placeholder's value, and the wire it binds. */
export interface DeclaredLaunchInputs {
  prompt: string
  workspace: string
  /** The scratch root the environment is built under (`{root}`). */
  root: string
  /** `http://127.0.0.1:PORT/v1`, or a scope's `…/__scope/<id>/v1`. */
  baseUrl: string
  wire: Wire
  /** Default: `vitest-harness-model`. */
  model?: string | undefined
  /** The directory of the node that runs node-script harnesses (`{nodeBin}`). */
  nodeBin: string
  /** The binary to run instead of the declared one. */
  program?: string | undefined
}

/** The launch inputs a C1 vector pins for a declared launch: nothing is read from the machine. */
export const declaredLaunchInputsSchema: z.ZodType<DeclaredLaunchInputs> = z.strictObject({
  prompt: z.string(),
  workspace: z.string(),
  root: z.string(),
  baseUrl: z.string(),
  wire: z.enum(WIRES),
  model: z.string().optional(),
  nodeBin: z.string(),
  program: z.string().optional(),
})

/** Why a declared launch cannot be planned for the inputs (a wire the harness does not speak). */
export class LaunchPlanError extends Error {
  readonly code = 'VH_LAUNCH_WIRE'
  constructor(
    readonly adapter: string,
    message: string,
  ) {
    super(message)
    this.name = 'LaunchPlanError'
  }
}

/**
 * What an Anthropic client takes as its base URL (it adds `/v1/messages` itself): the provider's
 * base URL without its `/v1`, so a scope's path prefix (`/__scope/<id>`) survives.
 */
export function originOf(baseUrl: string): string {
  const url = new URL(baseUrl)
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`
}

/** Replaces the declaration's placeholders; `{binding}` is expanded by the caller. */
export function substitutePlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(prompt|workspace|root|baseUrl|origin|model|nodeBin)\}/g, (whole, key: string) => values[key] ?? whole)
}

/** The wire's binding, or the coded reason there is none. */
export function bindingFor(declaration: LaunchDeclaration, wire: Wire): ModelBinding {
  const binding = declaration.bindings[wire]
  if (binding) return binding
  const wires = Object.keys(declaration.bindings).join(', ') || 'none'
  throw new LaunchPlanError(declaration.adapter, `${declaration.adapter} speaks no ${wire} wire (it speaks ${wires})`)
}

/** The placeholder values of a launch; the model is the caller's, else the declaration's, else `vitest-harness-model`. */
export function placeholderValues(declaration: LaunchDeclaration, inputs: DeclaredLaunchInputs): Record<string, string> {
  return {
    prompt: inputs.prompt,
    workspace: inputs.workspace,
    root: inputs.root,
    baseUrl: inputs.baseUrl,
    origin: originOf(inputs.baseUrl),
    model: inputs.model ?? declaration.model ?? 'vitest-harness-model',
    nodeBin: inputs.nodeBin,
  }
}

/**
 * The exact argv and environment a declared launch runs with (nothing inherited): the one planner
 * `launchHarness` spawns from, a C1 vector checks and `doctor` shows.
 */
export function planDeclaredLaunch(declaration: LaunchDeclaration, inputs: DeclaredLaunchInputs): LaunchPlan {
  return expandLaunch(declaration, inputs.wire, placeholderValues(declaration, inputs), inputs.program)
}

/**
 * The launch with its placeholders left in (`{prompt}`, `{root}`…) and only `{nodeBin}` filled:
 * what `doctor` shows a person, since every other value is chosen per run.
 */
export function planWithPlaceholders(declaration: LaunchDeclaration, wire: Wire, nodeBin: string, program?: string): LaunchPlan {
  const values = Object.fromEntries(['prompt', 'workspace', 'root', 'baseUrl', 'origin', 'model'].map((key) => [key, `{${key}}`]))
  return expandLaunch(declaration, wire, { ...values, nodeBin }, program)
}

function expandLaunch(declaration: LaunchDeclaration, wire: Wire, values: Readonly<Record<string, string>>, program: string | undefined): LaunchPlan {
  const binding = bindingFor(declaration, wire)
  const args = declaration.argv.flatMap((word) => (word === '{binding}' ? binding.args.map((arg) => substitutePlaceholders(arg, values)) : [substitutePlaceholders(word, values)]))
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...declaration.env, ...binding.env })) env[key] = substitutePlaceholders(value, values)
  return { program: program ?? declaration.binary, args, env }
}

/** A declared launch with what it writes under the scratch root first: the config files (placeholders filled) and directories. */
export interface DeclaredLaunchPlan extends LaunchPlan {
  readonly files: { readonly path: string; readonly content: string }[]
  readonly directories: string[]
}

/**
 * The whole of a declared launch for these inputs — argv, environment, config files, directories:
 * what `launchHarness` writes and spawns, and what a declared-only harness's C1 vector pins.
 */
export function planDeclaredRun(declaration: LaunchDeclaration, inputs: DeclaredLaunchInputs): DeclaredLaunchPlan {
  const values = placeholderValues(declaration, inputs)
  const binding = bindingFor(declaration, inputs.wire)
  return {
    ...planDeclaredLaunch(declaration, inputs),
    files: binding.files.map((file) => ({ path: file.path, content: substitutePlaceholders(file.content, values) })),
    directories: [...declaration.directories],
  }
}

/** A declared launch as an adapter's `launch` (the shape C1 vectors run against). */
export function declaredLaunchOf(declaration: LaunchDeclaration): { inputs: z.ZodType<DeclaredLaunchInputs>; plan(inputs: DeclaredLaunchInputs): LaunchPlan } {
  return { inputs: declaredLaunchInputsSchema, plan: (inputs) => planDeclaredLaunch(declaration, inputs) }
}
