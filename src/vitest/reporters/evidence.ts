import { readdirSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { SerializedError } from 'vitest'
import type { Reporter, TestCase, TestModule, TestRunEndReason, TestSuite, Vitest } from 'vitest/node'
import { renderEvidenceDocument } from '../../evidence/document.js'
import { newRunId, writeEvidenceSet } from '../../evidence/evidence-set.js'
import { environmentName, gitRevision, inputsDigest, provenancePath, toolRef, workspaceName, type RunProvenance } from '../../evidence/run-provenance.js'
import type { EvidenceSetFile } from '../../evidence/set-manifest.js'
import type { EvidenceProvenance } from '../../evidence/types.js'
import { prefixed } from '../../util/log.js'
import { packageVersion } from '../../util/package-info.js'
import { readHarnessMeta } from './evidence-meta.js'
import { normalizeEvidenceReporterOptions, type EvidenceReporterOptions, type NormalizedEvidenceReporterOptions } from './evidence-options.js'
import { planEvidence, type ModuleView, type PlannedRecord, type TestView } from './evidence-plan.js'
import { PROVIDED_TRACE_PAGES_KEY, PROVIDED_TRACE_PROOF_KEY } from '../provided.js'
import { clearTracePages, writeTracePagesIndex, type IndexedTraceTest } from './trace-pages-index.js'
import { runTraceProofKey } from '../trace-proof.js'

export type { EvidenceReporterOptions, TestResultGroup } from './evidence-options.js'

/** The names this reporter gives its files; with `clean: false` only these are carried into the next set. */
const OWN_FILE = /^(trace_conformance|test_result|contract_result)\..+\.(evidence\.(yaml|json)|line\.json)$/

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@:=+,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}

/** A path relative to the root with `/` (`../` when outside it), so provenance never names this machine's folders. */
function relativeInput(root: string, path: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/')
  return relative(root, path).split(sep).join('/') || '.'
}

function suitePath(test: TestCase): string[] {
  const path: string[] = []
  let parent: TestSuite | TestModule = test.parent
  while (parent.type === 'suite') {
    path.unshift(parent.id)
    parent = parent.parent
  }
  return path
}

function moduleView(module: TestModule, root: string, proofKey: string | undefined): ModuleView {
  const path = provenancePath(root, module.moduleId)
  const project = module.project.name
  const suites = [...module.children.allSuites()]
  const tests: TestView[] = [...module.children.allTests()].map((test) => ({
    fullName: `${path} > ${test.fullName}`,
    module: path,
    project,
    suitePath: suitePath(test),
    state: test.result().state,
    meta: readHarnessMeta(test.meta(), proofKey),
    startTime: test.diagnostic()?.startTime,
  }))
  return {
    module: path,
    project,
    failedOutsideTests: module.errors().length > 0 || suites.some((suite) => suite.errors().length > 0),
    duration: module.diagnostic().duration,
    tests,
  }
}

/**
 * `vitest-harness/reporter`: writes AEP evidence documents for what the run established — one
 * `trace_conformance` per trace check whose tests all ran, one `contract_result` per harness
 * contract whose vectors all ran, one `test_result` per test file (or configured group). Every
 * fact comes from task meta and results, so merged shard blobs (`--merge-reports`) give the
 * evidence one run gives. A skipped, todo or unfinished test mints nothing `passed`; a check that
 * threw mints nothing; an undecided check mints `inconclusive`; trace meta without the checker's
 * proof (see `trace-proof.ts`) mints nothing.
 *
 * The documents are written as one set, swapped in whole with a manifest (`evidence-set.ts`):
 * `outDir` is always the previous complete set or this run's, never a part of either.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { reporters: ['default', ['vitest-harness/reporter', { outDir: 'evidence' }]] } })
 */
export default class EvidenceReporter implements Reporter {
  private readonly options: NormalizedEvidenceReporterOptions
  private vitest: Vitest | undefined
  private proofKey: string | undefined

  constructor(options: EvidenceReporterOptions = {}) {
    this.options = normalizeEvidenceReporterOptions(options)
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    // Made here, in the main process, and handed to the workers: only the checker there signs with it.
    this.proofKey = runTraceProofKey(process.env)
    vitest.provide(PROVIDED_TRACE_PROOF_KEY, this.proofKey)
    const pages = this.pagesDir()
    if (pages !== undefined) {
      // A `--merge-reports` run runs no test: the pages are the shards', and its index links them.
      if (!vitest.config.mergeReports) clearTracePages(pages)
      // The workers' describeTraceSpec suites write each check's page here.
      vitest.provide(PROVIDED_TRACE_PAGES_KEY, pages)
    }
  }

  /** The absolute folder of the trace pages, or `undefined` without the `html` option. */
  private pagesDir(): string | undefined {
    if (this.options.html === false) return undefined
    return resolve(this.vitest?.config.root ?? process.cwd(), this.options.html.outDir)
  }

  /** Lists every test whose trace check the checker attached, with a link to its check's page. */
  private writePagesIndex(testModules: ReadonlyArray<TestModule>, root: string): void {
    const pages = this.pagesDir()
    if (pages === undefined) return
    const tests: IndexedTraceTest[] = []
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const trace = readHarnessMeta(test.meta(), this.proofKey).trace
        if (trace) tests.push({ module: provenancePath(root, module.moduleId), fullName: test.fullName, state: test.result().state, trace })
      }
    }
    const index = writeTracePagesIndex(pages, tests)
    this.log(`trace reports: ${tests.length} test(s) listed in ${relative(process.cwd(), index)}`)
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    const root = this.vitest?.config.root ?? process.cwd()
    const outDir = resolve(root, this.options.outDir)
    this.writePagesIndex(testModules, root)
    // A run that mints nothing still swaps in an empty set (with `clean`): an older run's records
    // must not stand as if they were this one's.
    if (reason === 'interrupted') {
      this.log('the run was interrupted, so no evidence was written')
      if (this.options.clean) this.writeSet(outDir, [])
      return
    }
    if (unhandledErrors.length > 0) {
      this.log(`the run had ${unhandledErrors.length} unhandled error(s) that no test owns, so no evidence was written`)
      if (this.options.clean) this.writeSet(outDir, [])
      return
    }
    const plan = planEvidence(
      testModules.map((module) => moduleView(module, root, this.proofKey)),
      this.options,
    )
    const files = this.render(plan.records, root)
    for (const note of plan.notes) this.log(note)
    const set = this.writeSet(outDir, this.options.clean ? files : [...files, ...this.carried(outDir, files)])
    this.log(`${plan.records.length} evidence document(s) in ${relative(process.cwd(), outDir) || '.'} (set ${set})`)
  }

  /** Writes the set and swaps it in; returns its run id. */
  private writeSet(outDir: string, files: readonly EvidenceSetFile[]): string {
    const written = writeEvidenceSet(outDir, newRunId(), files)
    for (const note of written.notes) this.log(note)
    return written.manifest.run_id
  }

  /** With `clean: false`: the previous set's documents this run does not write again. */
  private carried(outDir: string, files: readonly EvidenceSetFile[]): EvidenceSetFile[] {
    const names = new Set(files.map((file) => file.name))
    let existing: string[] = []
    try {
      existing = readdirSync(outDir)
    } catch {
      // No earlier set: nothing to carry.
    }
    return existing.filter((name) => OWN_FILE.test(name) && !names.has(name)).map((name) => ({ name, bytes: readFileSync(join(outDir, name)) }))
  }

  private render(records: readonly PlannedRecord[], root: string): EvidenceSetFile[] {
    if (records.length === 0) return []
    const run = this.runProvenance(root)
    const files: EvidenceSetFile[] = []
    for (const planned of records) {
      const record = planned.mint(this.provenance(planned, run, root))
      files.push({ name: `${planned.stem}.evidence.${this.options.format}`, bytes: renderEvidenceDocument([record], this.options.format) })
      if (planned.line) files.push({ name: `${planned.stem}.line.json`, bytes: planned.line })
    }
    return files
  }

  private runProvenance(root: string): RunProvenance {
    return {
      tool: toolRef('vitest-harness', packageVersion()),
      revision: gitRevision(root),
      workspace: workspaceName(root),
      environment: environmentName({ node: process.version, platform: process.platform, arch: process.arch, vitest: this.vitest?.version ?? 'unknown' }),
    }
  }

  /** The config file the run loaded, relative to the root (from where the command is run); `undefined` with none. */
  private configFile(root: string): string | undefined {
    let file: string | false | undefined
    try {
      file = this.vitest?.vite.config.configFile
    } catch {
      // A reporter driven without a Vite server (unit tests) has no config file to name.
      return undefined
    }
    return typeof file === 'string' && file.length > 0 ? relativeInput(root, file) : undefined
  }

  private provenance(planned: PlannedRecord, run: RunProvenance, root: string): EvidenceProvenance {
    const projects = [...new Set(planned.modules.map((module) => module.project).filter((project) => project.length > 0))].sort()
    const config = this.configFile(root)
    // Run from the root, this command re-runs exactly the modules the record covers, under the same config.
    const command = [
      'npx vitest run',
      ...(config === undefined ? [] : [`--config ${shellWord(config)}`]),
      ...planned.modules.map((module) => shellWord(module.module)),
      ...projects.map((project) => `--project ${shellWord(project)}`),
    ].join(' ')
    const inputs = planned.inputs.map((input) => relativeInput(root, input))
    return { command, ...run, digest: inputsDigest(root, inputs), inputs }
  }

  private log(message: string): void {
    const line = prefixed(`evidence: ${message}`)
    if (this.vitest) this.vitest.logger.log(line)
    else console.log(line)
  }
}
