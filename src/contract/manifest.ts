import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { z } from 'zod'
import { commandSchema } from '../events/command.js'
import { INPUT_LIMITS, readBoundedText } from '../util/read-input.js'
import { readYaml, renderYamlProblem } from '../util/yaml.js'

/** Where a vector's bytes came from; bytes are never relabelled. */
export const provenanceSchema = z.enum(['provider_emulated', 'vendor_live', 'synthetic'])
export type Provenance = z.infer<typeof provenanceSchema>

/** The conformance tiers with model-free vectors (C4, a live paid run, is never in a gate). */
export const tierSchema = z.enum(['c1', 'c2', 'c3'])
export type VectorTier = z.infer<typeof tierSchema>

/** Seam parameters a replay vector pins (the facts the vendor record does not carry). */
export const seamInputSchema = z.strictObject({
  run: z.string().min(1),
  harnessVersion: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  cwd: z.string().nullable().optional(),
  transcriptPath: z.string().nullable().optional(),
  transcriptDigest: z.string().nullable().optional(),
  transcriptBytes: z.number().int().nonnegative().nullable().optional(),
  hermetic: z
    .object({
      mode: z.enum(['off', 'on', 'strict']),
      decisions: z.enum(['observe', 'ask', 'frame']),
      imposed: z.array(z.unknown()).default([]),
      unavailable: z.array(z.unknown()).default([]),
      ambient_inputs: z.array(z.unknown()).default([]),
      installed_plugins: z.array(z.unknown()).default([]),
    })
    .optional(),
})
export type SeamInput = z.infer<typeof seamInputSchema>

const common = {
  id: z.string().regex(/^[a-z0-9][a-z0-9./-]*$/, 'a vector id is lowercase letters, digits, `-`, `.` and `/`'),
  adapter: z.string().min(1),
  provenance: provenanceSchema,
  /** The harness version(s) the recorded inputs were captured from. */
  pins: z.array(z.string()).default([]),
  description: z.string().optional(),
}

/** A JSON pointer (RFC 6901) into a hook-input document. */
const pointerSchema = z.string().regex(/^(\/[^/]*)*$/, 'a JSON pointer is empty or starts with `/`')

/** When a control vector sends a command: before the first event, or after the first event that matches. */
export const commandTriggerSchema = z.union([
  z.strictObject({ at: z.literal('start'), send: commandSchema, id: z.string().min(1).optional() }),
  z.strictObject({
    after: z.looseObject({ event: z.string().min(1) }),
    send: commandSchema,
    id: z.string().min(1).optional(),
  }),
])
export type CommandTrigger = z.infer<typeof commandTriggerSchema>

export const vectorManifestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...common,
    tier: z.literal('c1'),
    kind: z.literal('launch'),
    inputs: z.strictObject({ launch: z.record(z.string(), z.unknown()) }),
    expected: z.strictObject({ record: z.string() }),
  }),
  z.strictObject({
    ...common,
    tier: z.literal('c2'),
    kind: z.literal('replay'),
    inputs: z.strictObject({
      record: z.string(),
      /** The record's transcript format (`codex/exec-json`), one of the adapter's. Default: the adapter's own reader. */
      format: z.string().min(1).optional(),
      seam: seamInputSchema,
    }),
    expected: z.strictObject({ events: z.string() }),
  }),
  z.strictObject({
    ...common,
    tier: z.literal('c1'),
    kind: z.literal('launch-refusal'),
    inputs: z.strictObject({ launch: z.record(z.string(), z.unknown()) }),
    /** The refusal the adapter must give; `display`, when pinned, must match word for word. */
    expected: z.strictObject({ refusal: z.strictObject({ code: z.string().min(1), display: z.string().optional() }) }),
  }),
  z.strictObject({
    ...common,
    tier: z.literal('c2'),
    kind: z.literal('hook-input'),
    /** A raw hook stdin document, as the vendor wrote it. */
    inputs: z.strictObject({ hook: z.string() }),
    expected: z.strictObject({
      /** JSON pointer → the value it must hold (parsed-JSON equality). */
      fields: z.record(pointerSchema, z.unknown()),
      /** The tool the document names must be what the adapter renders this operation to. */
      rendering: z.strictObject({ operation: z.string().min(1), pointer: pointerSchema }).optional(),
    }),
  }),
  z.strictObject({
    ...common,
    tier: z.literal('c3'),
    kind: z.literal('control'),
    inputs: z.strictObject({
      /** The fake vendor's script: one `{"emit":…}` or `{"await":"<call_id>"}` line per step. */
      script: z.string(),
      run: z.string().min(1).default('c3'),
      decisions: z.enum(['ask', 'observe']).default('ask'),
      commands: z.array(commandTriggerSchema).default([]),
    }),
    expected: z.strictObject({
      /** The whole ordered trace, one note per event (`tool.decided allow by=embedder`). */
      trace: z.array(z.string()),
      /** Every line written to the child, in order. */
      written: z.array(z.string()),
      /** The whole event stream, byte for byte, when pinned. */
      events: z.string().optional(),
    }),
  }),
  z.strictObject({
    ...common,
    tier: z.literal('c2'),
    kind: z.literal('version-pair'),
    inputs: z.strictObject({ banner: z.string() }),
    expected: z.strictObject({}).optional(),
  }),
])

export type VectorManifest = z.infer<typeof vectorManifestSchema>

/** A manifest with the directory its relative paths resolve against. */
export type LoadedVector = VectorManifest & { readonly dir: string }

/** A vector manifest that could not be read: the file, the JSON path and the reason. */
export class VectorManifestError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    reason: string,
    /** `VH_VECTOR_PATH`: a key names a file outside the vector's folder. */
    readonly code: 'VH_VECTOR_MANIFEST' | 'VH_VECTOR_PATH' = 'VH_VECTOR_MANIFEST',
  ) {
    super(`${file}${path ? ` at ${path}` : ''}: ${reason}`)
    this.name = 'VectorManifestError'
  }
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('')
}

/** The keys of each kind that name a file in the vector's folder. */
const FILE_KEYS: { readonly [K in VectorManifest['kind']]: readonly (readonly ['inputs' | 'expected', string])[] } = {
  launch: [['expected', 'record']],
  replay: [
    ['inputs', 'record'],
    ['expected', 'events'],
  ],
  'launch-refusal': [],
  'hook-input': [['inputs', 'hook']],
  control: [
    ['inputs', 'script'],
    ['expected', 'events'],
  ],
  'version-pair': [['inputs', 'banner']],
}

function inside(root: string, path: string): boolean {
  const rest = relative(root, path)
  return rest === '' || (!rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest))
}

/**
 * Why `name` may not be read as a file of the vector in `dir`, or `undefined`: a vector is data a
 * contributor sends, and its manifest must not make a contract read (and quote) `/etc/passwd`.
 * Absolute paths and `..` are refused by their spelling; a symlink by where it really leads.
 */
function escapeProblem(dir: string, name: string): string | undefined {
  if (isAbsolute(name) || /^[A-Za-z]:[\\/]/.test(name)) return `${JSON.stringify(name)} is an absolute path; name a file inside the vector's folder`
  if (name.split(/[\\/]/).includes('..')) return `${JSON.stringify(name)} climbs out with \`..\`; name a file inside the vector's folder`
  const full = resolve(dir, name)
  if (!existsSync(full)) return undefined
  const root = realpathSync(dir)
  const real = realpathSync(full)
  return inside(root, real) ? undefined : `${JSON.stringify(name)} is a symlink to ${real}, outside the vector's folder ${root}`
}

function confineFiles(file: string, dir: string, manifest: VectorManifest): void {
  for (const [section, key] of FILE_KEYS[manifest.kind]) {
    const name = (manifest as unknown as Record<string, Record<string, unknown> | undefined>)[section]?.[key]
    if (typeof name !== 'string') continue
    const problem = escapeProblem(dir, name)
    if (problem) throw new VectorManifestError(file, `${section}.${key}`, problem, 'VH_VECTOR_PATH')
  }
}

/** Reads `<dir>/vector.yaml`; refuses a manifest whose file keys lead outside `dir`. */
export function loadVectorManifest(dir: string): LoadedVector {
  const file = join(dir, 'vector.yaml')
  const read = readYaml(readBoundedText(file, { maxBytes: INPUT_LIMITS.vectorManifest, what: 'vector manifest' }))
  if (!read.ok) throw new VectorManifestError(file, '', read.problems.map((problem) => renderYamlProblem(problem, file)).join('; '))
  const document = read.value
  const parsed = vectorManifestSchema.safeParse(document)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new VectorManifestError(file, issue ? issuePath(issue.path) : '', issue?.message ?? 'invalid manifest')
  }
  confineFiles(file, dir, parsed.data)
  return { ...parsed.data, dir: resolve(dir) }
}

/** Every vector under `root` (any depth), in path order. */
export function loadVectors(root: string): LoadedVector[] {
  const found: LoadedVector[] = []
  const walk = (dir: string): void => {
    // Entries carry their type, so a thousand vectors cost a thousand directory reads and no stats.
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    if (entries.some((entry) => entry.name === 'vector.yaml' && !entry.isDirectory())) found.push(loadVectorManifest(dir))
    for (const entry of entries) {
      const child = join(dir, entry.name)
      if (entry.isDirectory() || (entry.isSymbolicLink() && statSync(child).isDirectory())) walk(child)
    }
  }
  walk(root)
  const seen = new Set<string>()
  for (const vector of found) {
    if (seen.has(vector.id)) throw new VectorManifestError(join(vector.dir, 'vector.yaml'), 'id', `the id ${JSON.stringify(vector.id)} is used by two vectors`)
    seen.add(vector.id)
  }
  return found
}

/** A file named by a manifest, resolved against the vector's directory (and refused outside it). */
export function vectorFile(vector: LoadedVector, name: string): string {
  const problem = escapeProblem(vector.dir, name)
  if (problem) throw new VectorManifestError(join(vector.dir, 'vector.yaml'), '', problem, 'VH_VECTOR_PATH')
  return resolve(vector.dir, name)
}

/** Reads one of a vector's files as UTF-8, never more than the vector limit. */
export function readVectorFile(vector: LoadedVector, name: string): string {
  return readBoundedText(vectorFile(vector, name), { maxBytes: INPUT_LIMITS.vector, what: 'vector file' })
}
