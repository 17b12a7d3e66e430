import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, extname, join, resolve } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { stringify } from 'yaml'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'
import { launchHarness } from '../../adapters/launch/launch-harness.js'
import { planDeclaredLaunch, type DeclaredLaunchInputs } from '../../adapters/launch/plan.js'
import { declaredChildPath, resolveHarnessBinary } from '../../adapters/launch/resolve-binary.js'
import { listTranscriptFiles } from '../../adapters/transcript/path-order.js'
import { readRecorderInput } from '../../recorders/provider/read-input.js'
import { loadScenario } from '../../recorders/provider/scenario.js'
import { startProvider } from '../../recorders/provider/server.js'
import { INPUT_LIMITS } from '../util/read-input.js'
import { versionToken } from './doctor.js'
import { loadVectorManifest, type LoadedVector } from './manifest.js'
import { checkVector, replayVector } from './run-vector.js'

/** Why a vector could not be recorded: never a vector that looks recorded. */
export class VectorRecordError extends Error {
  constructor(
    readonly code: 'VH_NO_LAUNCH' | 'VH_NO_BINARY' | 'VH_VECTOR_EXISTS' | 'VH_RUN_FAILED' | 'VH_LAUNCH_DRIFT' | 'VH_NOTHING_RECORDED' | 'VH_VECTOR_UNSTABLE',
    /** The file, folder or adapter the refusal is about. */
    readonly location: string,
    message: string,
  ) {
    super(`${code} at ${location}: ${message}`)
    this.name = 'VectorRecordError'
  }
}

export interface RecordVectorOptions {
  /** The folder the vectors are written into (one sub-folder per vector). */
  out: string
  /** The scenario the loopback provider answers from. `{workspace}` in its text is the run's workspace. */
  scenario: string
  prompt: string
  /** The vectors' id prefix. Default: `<adapter>-recorded` (ids are unique across the package's vectors). */
  id?: string
  /** A folder copied in as the run's workspace. Default: an empty one. */
  workspace?: string
  /** The scratch root the run is built under (it is recorded in the vectors). Default: a new temporary folder. */
  scratch?: string
  /** The binary to run. Default: the harness cache, then the child's PATH (as `doctor` resolves it). */
  program?: string
  /** Default: the launch's first wire. */
  wire?: Wire
  /** The model name the provider answers for. Default: `vitest-harness-model`. */
  model?: string
  timeoutMs?: number
  /** Where the harness cache is looked up. Default: `process.env`. */
  env?: NodeJS.ProcessEnv
}

/** One vector written, and how it checked against the adapter right after. */
export interface RecordedVector {
  readonly id: string
  readonly dir: string
  readonly kind: LoadedVector['kind']
  readonly passed: boolean
  readonly detail: string
}

export interface VectorRecording {
  readonly program: string
  readonly version: string
  readonly vectors: readonly RecordedVector[]
}

const SUFFIX = { launch: 'launch', stdout: 'stdout', trajectory: 'trajectory', version: 'version-pair' } as const

function writeVector(dir: string, manifest: Record<string, unknown>, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true })
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  writeFileSync(join(dir, 'vector.yaml'), stringify(manifest, { lineWidth: 0 }))
}

/** The scenario, with `{workspace}` filled (Claude's Read takes an absolute path), in the scratch root. */
function prepareScenario(scenario: string, workspace: string, scratch: string): string {
  const text = readRecorderInput(scenario, 'scenario', INPUT_LIMITS.scenario)
  if (!text.includes('{workspace}')) return resolve(scenario)
  const filled = join(scratch, `scenario${extname(scenario) || '.yaml'}`)
  writeFileSync(filled, text.split('{workspace}').join(workspace))
  return filled
}

/** The first record the harness wrote under its trajectory folder (the session it ran), or undefined. */
function trajectoryFile(declaration: LaunchDeclaration, scratch: string): string | undefined {
  if (!declaration.trajectory) return undefined
  const root = join(scratch, declaration.trajectory.path)
  if (!existsSync(root) || !statSync(root).isDirectory()) return undefined
  // Subagent files sit under `<session>/subagents/`; the session's own file is the shallowest.
  const files = listTranscriptFiles(root, ['.jsonl']).sort((a, b) => a.split('/').length - b.split('/').length)
  return files[0]
}

/**
 * Records a vector set from a real run: the binary (the harness cache or `--program`) launched as
 * its declaration says, against an in-process loopback provider answering from a scenario. Writes a
 * C1 launch vector (the planned argv/env, checked equal to what was spawned), C2 replays of what it
 * printed on stdout and of the trajectory it wrote, and the version pair; then checks each against
 * the adapter, so a vector that does not hold is reported at once, not shipped.
 */
export async function recordVector(adapter: HarnessAdapter, options: RecordVectorOptions): Promise<VectorRecording> {
  const declaration = adapter.declaration
  // The scenario is refused (coded, bounded) before any binary is looked for or run.
  loadScenario(options.scenario)
  if (!declaration) throw new VectorRecordError('VH_NO_LAUNCH', adapter.id, `the ${adapter.id} adapter declares no launch, so there is no run to record a vector from`)
  const wires = Object.keys(declaration.bindings) as Wire[]
  const wire = options.wire ?? wires[0]
  if (!wire || !declaration.bindings[wire]) {
    throw new VectorRecordError('VH_NO_LAUNCH', adapter.id, `${adapter.id} speaks no ${options.wire ?? ''} wire (it speaks ${wires.join(', ') || 'none'})`)
  }
  const binary = resolveHarnessBinary(declaration, { program: options.program, ...(options.env ? { env: options.env } : {}) })
  if (!binary) {
    throw new VectorRecordError(
      'VH_NO_BINARY',
      options.program ?? declaration.binary,
      `no ${declaration.binary} to run: not ${options.program === undefined ? 'in the harness cache or' : 'named by --program, nor'} on the child's PATH. Install the pinned ${declaration.pinnedVersion ?? ''} (\`vitest-harness doctor ${adapter.id}\` says where it is looked for) or pass --program`,
    )
  }
  const id = options.id ?? `${adapter.id}-recorded`
  const out = resolve(options.out)
  for (const suffix of Object.values(SUFFIX)) {
    const dir = join(out, `${id}-${suffix}`)
    if (existsSync(dir)) throw new VectorRecordError('VH_VECTOR_EXISTS', dir, 'a vector is already there; recording never overwrites one. Choose another --id or remove it deliberately')
  }

  const scratch = resolve(options.scratch ?? mkdtempSync(join(tmpdir(), 'vh-vector-')))
  rmSync(scratch, { recursive: true, force: true })
  mkdirSync(scratch, { recursive: true })
  const workspace = join(scratch, 'work')
  if (options.workspace) cpSync(options.workspace, workspace, { recursive: true })
  else mkdirSync(workspace, { recursive: true })
  const scenario = prepareScenario(options.scenario, workspace, scratch)

  const versionRun = spawnSync(binary.path, ['--version'], { encoding: 'utf8', env: { PATH: declaredChildPath(declaration) }, timeout: 30_000 })
  const banner = versionRun.status === 0 ? versionRun.stdout.trim() : ''
  if (!banner) throw new VectorRecordError('VH_RUN_FAILED', binary.path, `${binary.path} --version did not answer: ${versionRun.error?.message ?? versionRun.stderr.trim()}`)
  const version = versionToken(banner.slice(adapter.bannerPrefix.length))

  const provider = await startProvider({ scenario, mode: 'replay', env: {} })
  let run: Awaited<ReturnType<typeof launchHarness>>
  try {
    run = await launchHarness(declaration, {
      prompt: options.prompt,
      workspace,
      scratch,
      provider: { baseUrl: provider.baseUrl, wire },
      program: binary.path,
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    })
  } finally {
    await provider.close()
  }
  if (run.failed) throw new VectorRecordError('VH_RUN_FAILED', binary.path, `${run.shortMessage}\n${run.stderr.trim().split('\n').slice(-5).join('\n')}`)

  // The C1 vector pins the launch as declared (the binary by its name); what was spawned must be exactly that plan.
  const inputs: DeclaredLaunchInputs = { prompt: options.prompt, workspace, root: scratch, baseUrl: provider.baseUrl, wire, nodeBin: dirname(process.execPath), ...(options.model === undefined ? {} : { model: options.model }) }
  const plan = planDeclaredLaunch(declaration, inputs)
  if (!isDeepStrictEqual(plan.args, run.args) || !isDeepStrictEqual(plan.env, run.env)) {
    throw new VectorRecordError('VH_LAUNCH_DRIFT', adapter.id, 'the argv/env the run was spawned with differ from the launch plan, so a C1 vector of the plan would not describe the run')
  }
  const seam = { run: id, harnessVersion: version, model: inputs.model ?? 'vitest-harness-model', cwd: workspace }
  const common = { adapter: adapter.id, provenance: 'provider_emulated', pins: [version] }
  const written: string[] = []
  const at = (suffix: string): string => join(out, `${id}-${suffix}`)

  writeVector(
    at(SUFFIX.launch),
    {
      id: `${id}-${SUFFIX.launch}`,
      tier: 'c1',
      kind: 'launch',
      ...common,
      description: `The headless launch ${adapter.id} ${version} ran for this recording: argv and an environment constructed from nothing.`,
      inputs: { launch: inputs },
      expected: { record: 'launch.json' },
    },
    { 'launch.json': `${JSON.stringify(plan, null, 2)}\n` },
  )
  written.push(at(SUFFIX.launch))

  const replays: [string, string | undefined, string, string][] = []
  if (declaration.stdout && run.stdout.length > 0) replays.push([SUFFIX.stdout, run.stdout, declaration.stdout.format, `what ${declaration.binary} printed on stdout`])
  const trajectory = trajectoryFile(declaration, scratch)
  if (declaration.trajectory && trajectory) replays.push([SUFFIX.trajectory, readFileSync(trajectory, 'utf8'), declaration.trajectory.format, `the record ${declaration.binary} wrote under ${declaration.trajectory.path}`])
  if (replays.length === 0) throw new VectorRecordError('VH_NOTHING_RECORDED', scratch, `${declaration.binary} exited 0 and left no stdout record and no trajectory to replay`)
  for (const [suffix, text, format, what] of replays) {
    const dir = at(suffix)
    writeVector(
      dir,
      {
        id: `${id}-${suffix}`,
        tier: 'c2',
        kind: 'replay',
        ...common,
        description: `${what[0]?.toUpperCase()}${what.slice(1)} (${format}), replayed through the ${adapter.id} reader.`,
        inputs: { record: 'record.jsonl', format, seam },
        expected: { events: 'events.expected.jsonl' },
      },
      { 'record.jsonl': text as string, 'events.expected.jsonl': '' },
    )
    // The expectation is the reader's projection of the bytes as recorded: a regression vector, checked again below.
    const vector = loadVectorManifest(dir)
    writeFileSync(join(dir, 'events.expected.jsonl'), replayVector(vector as Extract<LoadedVector, { kind: 'replay' }>, adapter))
    written.push(dir)
  }

  writeVector(
    at(SUFFIX.version),
    {
      id: `${id}-${SUFFIX.version}`,
      tier: 'c2',
      kind: 'version-pair',
      ...common,
      description: `The banner of the binary that wrote ${id}-${replays[0]?.[0]}, against the adapter's pins.`,
      inputs: { banner: 'version.txt' },
    },
    { 'version.txt': `${banner}\n` },
  )
  written.push(at(SUFFIX.version))

  const vectors: RecordedVector[] = []
  for (const dir of written) {
    const vector = loadVectorManifest(dir)
    const { outcome } = await checkVector(vector, adapter)
    vectors.push({ id: vector.id, dir, kind: vector.kind, passed: outcome.passed, detail: outcome.detail })
  }
  const unstable = vectors.find((vector) => !vector.passed && vector.kind !== 'version-pair')
  if (unstable) throw new VectorRecordError('VH_VECTOR_UNSTABLE', unstable.dir, `the vector was written and does not hold against the adapter it was recorded for: ${unstable.detail}`)
  return { program: binary.path, version, vectors }
}
