import { readdirSync, rmSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import type { SerializedError } from 'vitest'
import type { Reporter, TestCase, TestModule, TestRunEndReason, TestSuite, Vitest } from 'vitest/node'
import { writeEvidenceDocument } from '../../evidence/document.js'
import { environmentName, gitRevision, inputsDigest, provenancePath, toolRef, workspaceName, type RunProvenance } from '../../evidence/run-provenance.js'
import type { EvidenceProvenance } from '../../evidence/types.js'
import { writeFileAtomic } from '../../util/atomic-write.js'
import { prefixed } from '../../util/log.js'
import { packageVersion } from '../../util/package-info.js'
import { readHarnessMeta } from './evidence-meta.js'
import { normalizeEvidenceReporterOptions, type EvidenceReporterOptions, type NormalizedEvidenceReporterOptions } from './evidence-options.js'
import { planEvidence, type ModuleView, type PlannedRecord, type TestView } from './evidence-plan.js'

export type { EvidenceReporterOptions, TestResultGroup } from './evidence-options.js'

/** The names this reporter gives its files; `clean` removes only these. */
const OWN_FILE = /^(trace_conformance|test_result|contract_result)\..+\.(evidence\.(yaml|json)|line\.json)$/

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@:=+,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
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

function moduleView(module: TestModule, root: string): ModuleView {
  const path = provenancePath(root, module.moduleId)
  const project = module.project.name
  const suites = [...module.children.allSuites()]
  const tests: TestView[] = [...module.children.allTests()].map((test) => ({
    fullName: `${path} > ${test.fullName}`,
    module: path,
    project,
    suitePath: suitePath(test),
    state: test.result().state,
    meta: readHarnessMeta(test.meta()),
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
 * threw mints nothing; an undecided check mints `inconclusive`.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { reporters: ['default', ['vitest-harness/reporter', { outDir: 'evidence' }]] } })
 */
export default class EvidenceReporter implements Reporter {
  private readonly options: NormalizedEvidenceReporterOptions
  private vitest: Vitest | undefined

  constructor(options: EvidenceReporterOptions = {}) {
    this.options = normalizeEvidenceReporterOptions(options)
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    const root = this.vitest?.config.root ?? process.cwd()
    // Last run's documents go first, whatever happens next: a run that mints nothing must not
    // leave an older run's records standing as if they were this one's.
    if (this.options.clean) this.clean(root)
    if (reason === 'interrupted') {
      this.log('the run was interrupted, so no evidence was written')
      return
    }
    if (unhandledErrors.length > 0) {
      this.log(`the run had ${unhandledErrors.length} unhandled error(s) that no test owns, so no evidence was written`)
      return
    }
    const plan = planEvidence(testModules.map((module) => moduleView(module, root)), this.options)
    const written = this.write(plan.records, root)
    for (const note of plan.notes) this.log(note)
    this.log(`${written} evidence document(s) in ${relative(process.cwd(), resolve(root, this.options.outDir)) || '.'}`)
  }

  private clean(root: string): void {
    const outDir = resolve(root, this.options.outDir)
    let existing: string[] = []
    try {
      existing = readdirSync(outDir)
    } catch {
      // No folder yet: nothing of ours to remove.
    }
    for (const name of existing.filter((candidate) => OWN_FILE.test(candidate))) rmSync(join(outDir, name), { force: true })
  }

  private write(records: readonly PlannedRecord[], root: string): number {
    const outDir = resolve(root, this.options.outDir)
    if (records.length === 0) return 0
    const run = this.runProvenance(root)
    for (const planned of records) {
      const record = planned.mint(this.provenance(planned, run, root))
      writeEvidenceDocument(join(outDir, `${planned.stem}.evidence.${this.options.format}`), [record], this.options.format)
      if (planned.line) writeFileAtomic(join(outDir, `${planned.stem}.line.json`), planned.line)
    }
    return records.length
  }

  private runProvenance(root: string): RunProvenance {
    return {
      tool: toolRef('vitest-harness', packageVersion()),
      revision: gitRevision(root),
      workspace: workspaceName(root),
      environment: environmentName({ node: process.version, platform: process.platform, arch: process.arch, vitest: this.vitest?.version ?? 'unknown' }),
    }
  }

  private provenance(planned: PlannedRecord, run: RunProvenance, root: string): EvidenceProvenance {
    const projects = [...new Set(planned.modules.map((module) => module.project).filter((project) => project.length > 0))].sort()
    const command = ['npx vitest run', ...planned.modules.map((module) => shellWord(module.module)), ...projects.map((project) => `--project ${shellWord(project)}`)].join(' ')
    return { command, ...run, digest: inputsDigest(root, planned.inputs), inputs: planned.inputs }
  }

  private log(message: string): void {
    const line = prefixed(`evidence: ${message}`)
    if (this.vitest) this.vitest.logger.log(line)
    else console.log(line)
  }
}
