import { sha256Hex } from '../../events/digest.js'
import { contractResult, contractResultLine, contractResultRecord, type ContractResult } from '../../evidence/contract-result.js'
import { testResultRecord } from '../../evidence/test-result.js'
import { traceConformanceRecord } from '../../evidence/trace-conformance.js'
import type { EvidenceProvenance, EvidenceRecord } from '../../evidence/types.js'
import type { ContractVectorMeta, TraceCheckMeta } from '../meta.js'
import type { ReadMeta } from './evidence-meta.js'
import type { NormalizedEvidenceReporterOptions, TestResultGroup } from './evidence-options.js'

/** A test as the plan needs it: what Vitest reports, with no Vitest types (so it plans from blobs too). */
export interface TestView {
  readonly fullName: string
  /** The module's path, relative to the root. */
  readonly module: string
  readonly project: string
  /** Ids of the suites between the module and the test, outermost first. */
  readonly suitePath: readonly string[]
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending'
  readonly meta: ReadMeta
  /** Epoch ms when the test started, taken in the worker. */
  readonly startTime?: number
}

export interface ModuleView {
  readonly module: string
  readonly project: string
  /** Errors outside any test: a module that failed to load, a hook that threw. */
  readonly failedOutsideTests: boolean
  /** Accumulated duration of the module's tests and hooks, ms. */
  readonly duration: number
  readonly tests: readonly TestView[]
}

/** One document to write: the record, minted once provenance is known. */
export interface PlannedRecord {
  /** The file name without its extension, unique in the plan. */
  readonly stem: string
  readonly kind: EvidenceRecord['kind']
  /** Files the observation depended on, relative to the root. */
  readonly inputs: readonly string[]
  /** The test modules that reproduce it. */
  readonly modules: readonly { readonly module: string; readonly project: string }[]
  mint(provenance: EvidenceProvenance | undefined): EvidenceRecord
  /** For a contract: metaharness's `contract_result` line, written beside the document. */
  readonly line?: string
}

export interface EvidencePlan {
  readonly records: readonly PlannedRecord[]
  /** Why something that looked like evidence was not minted, one sentence each. */
  readonly notes: readonly string[]
}

function slug(text: string): string {
  const kebab = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return kebab.slice(0, 60).replace(/-+$/, '') || 'x'
}

function stemFor(kind: string, name: string, identity: string): string {
  return `${kind}.${slug(name)}.${sha256Hex(identity).slice(0, 8)}`
}

/** A glob over `/`-separated paths: `**` any number of segments, `*` within one, `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let pattern = ''
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string
    if (char === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/'
      pattern += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (char === '*') pattern += '[^/]*'
    else if (char === '?') pattern += '[^/]'
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${pattern}$`)
}

function ran(test: TestView): boolean {
  return test.state === 'passed' || test.state === 'failed'
}

function earliest(times: readonly (number | undefined)[]): number | undefined {
  const known = times.filter((time): time is number => time !== undefined && Number.isFinite(time))
  return known.length === 0 ? undefined : Math.floor(Math.min(...known))
}

function uniqueModules(tests: readonly TestView[]): { module: string; project: string }[] {
  const seen = new Map<string, { module: string; project: string }>()
  for (const test of tests) seen.set(`${test.project}\u0000${test.module}`, { module: test.module, project: test.project })
  return [...seen.values()].sort((a, b) => (a.module === b.module ? a.project.localeCompare(b.project) : a.module < b.module ? -1 : 1))
}

function commonPrefix(paths: readonly (readonly string[])[]): readonly string[] {
  const [first = []] = paths
  let length = first.length
  for (const path of paths) {
    let same = 0
    while (same < length && same < path.length && path[same] === first[same]) same++
    length = same
  }
  return first.slice(0, length)
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((id, index) => path[index] === id)
}

/**
 * Why the tests of a trace group did not all run, or `undefined` when they did. The group's scope
 * is, in each module, the innermost suite holding all of its tests: every test there must have run
 * — a skipped, todo or unfinished test, a test that failed before its check attached a verdict, or
 * meta that cannot be read, leaves the spec not (all) checked, so nothing is minted.
 */
function traceGroupGap(key: string, members: readonly TestView[], modules: readonly ModuleView[]): string | undefined {
  for (const module of modules) {
    const inModule = members.filter((test) => test.module === module.module && test.project === module.project)
    if (inModule.length === 0) continue
    const scope = commonPrefix(inModule.map((test) => test.suitePath))
    for (const test of module.tests.filter((candidate) => startsWith(candidate.suitePath, scope))) {
      const own = test.meta.trace?.key === key
      if (test.meta.problems.length > 0) return `${test.fullName}: ${test.meta.problems[0]}`
      if (own && !ran(test)) return `${test.fullName} did not run to a result (${test.state})`
      if (own || test.meta.trace) continue
      if (test.state === 'skipped' || test.state === 'pending') return `${test.fullName} was ${test.state === 'skipped' ? 'skipped' : 'not finished'}`
      if (test.state === 'failed') return `${test.fullName} failed without a verdict: its check threw or never ran`
    }
  }
  return undefined
}

function planTraceGroups(modules: readonly ModuleView[], notes: string[]): PlannedRecord[] {
  const groups = new Map<string, TestView[]>()
  for (const test of modules.flatMap((module) => module.tests)) {
    const key = test.meta.trace?.key
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), test])
  }
  const planned: PlannedRecord[] = []
  for (const [key, members] of groups) {
    const metas = members.map((test) => test.meta.trace as TraceCheckMeta)
    const first = metas[0] as TraceCheckMeta
    const label = `trace_conformance for ${first.report.spec_id} (${key})`
    const gap = traceGroupGap(key, members, modules)
    if (gap) {
      notes.push(`no ${label}: ${gap}`)
      continue
    }
    const report = JSON.stringify(first.report)
    if (metas.some((meta) => JSON.stringify(meta.report) !== report)) {
      notes.push(`no ${label}: its tests carry different reports under one key`)
      continue
    }
    const observedAt = earliest(metas.map((meta) => meta.observedAt)) as number
    const runs = uniqueModules(members)
    const named = (pick: (meta: TraceCheckMeta) => string | undefined): string[] => [...new Set(metas.map(pick).filter((path): path is string => path !== undefined))].sort()
    const inputs = [...named((meta) => meta.specPath), ...named((meta) => meta.transcriptPath), ...runs.map((run) => run.module)]
    const mint = (provenance: EvidenceProvenance | undefined): EvidenceRecord => traceConformanceRecord(first.report, observedAt, provenance)
    try {
      mint(undefined)
    } catch (error) {
      notes.push(`no ${label}: ${(error as Error).message}`)
      continue
    }
    planned.push({ stem: stemFor('trace_conformance', first.report.spec_id, key), kind: 'trace_conformance', inputs, modules: runs, mint })
  }
  return planned
}

function planContracts(modules: readonly ModuleView[], notes: string[]): PlannedRecord[] {
  const groups = new Map<string, TestView[]>()
  for (const test of modules.flatMap((module) => module.tests)) {
    const contract = test.meta.vector?.contract
    if (contract !== undefined) groups.set(contract, [...(groups.get(contract) ?? []), test])
  }
  const planned: PlannedRecord[] = []
  for (const [contract, members] of groups) {
    const metas = members.map((test) => test.meta.vector as ContractVectorMeta)
    const first = metas[0] as ContractVectorMeta
    const label = `contract_result for ${contract}`
    const declared = JSON.stringify([...first.vectorIds].sort())
    if (metas.some((meta) => meta.provider !== first.provider || JSON.stringify([...meta.vectorIds].sort()) !== declared)) {
      notes.push(`no ${label}: its vectors disagree about the provider or the vector list`)
      continue
    }
    const counted: { tier: string; passed: boolean }[] = []
    const times: number[] = []
    let missing: string | undefined
    for (const id of first.vectorIds) {
      const runs = members.filter((test) => ran(test) && test.meta.vector?.outcome.id === id)
      if (runs.length === 0) {
        const test = members.find((candidate) => candidate.meta.vector?.outcome.id === id)
        missing = test ? `${test.fullName} did not run to a result (${test.state})` : `vector ${id} did not run`
        break
      }
      const outcomes = runs.map((test) => (test.meta.vector as ContractVectorMeta).outcome)
      counted.push(outcomes.find((outcome) => !outcome.passed) ?? (outcomes[0] as ContractVectorMeta['outcome']))
      times.push(...runs.map((test) => (test.meta.vector as ContractVectorMeta).observedAt))
    }
    if (missing) {
      notes.push(`no ${label}: ${missing}`)
      continue
    }
    const result: ContractResult = contractResult(counted, first.provider)
    const observedAt = earliest(times) as number
    const runs = uniqueModules(members)
    const mint = (provenance: EvidenceProvenance | undefined): EvidenceRecord => contractResultRecord(result, observedAt, provenance)
    try {
      mint(undefined)
    } catch (error) {
      notes.push(`no ${label}: ${(error as Error).message}`)
      continue
    }
    planned.push({ stem: stemFor('contract_result', contract, contract), kind: 'contract_result', inputs: runs.map((run) => run.module), modules: runs, mint, line: contractResultLine(result) })
  }
  return planned
}

/** Why a module's counts cannot be recorded, or `undefined`. */
function moduleGap(module: ModuleView): string | undefined {
  if (module.failedOutsideTests) return `${module.module} failed outside its tests, so its counts are not an observation of them`
  const pending = module.tests.find((test) => test.state === 'pending')
  if (pending) return `${pending.fullName} did not finish`
  return undefined
}

function planTestResult(suite: string, selector: string, included: readonly ModuleView[], durations: boolean, notes: string[]): PlannedRecord | undefined {
  const label = `test_result for ${selector}`
  for (const module of included) {
    const gap = moduleGap(module)
    if (gap) {
      notes.push(`no ${label}: ${gap}`)
      return undefined
    }
  }
  const tests = included.flatMap((module) => module.tests)
  const passed = tests.filter((test) => test.state === 'passed').length
  const failed = tests.filter((test) => test.state === 'failed').length
  const skipped = tests.filter((test) => test.state === 'skipped').length
  // Nothing ran to a result: no record, not even an inconclusive one — there is no observation.
  if (passed + failed === 0) return undefined
  const observedAt = earliest(tests.filter(ran).map((test) => test.startTime))
  if (observedAt === undefined) {
    notes.push(`no ${label}: no test says when it ran`)
    return undefined
  }
  const durationMs = durations ? included.reduce((sum, module) => sum + module.duration, 0) : undefined
  const modules = included.map((module) => ({ module: module.module, project: module.project }))
  return {
    stem: stemFor('test_result', selector, `${suite}\u0000${selector}\u0000${modules.map((module) => `${module.project}/${module.module}`).join('\u0000')}`),
    kind: 'test_result',
    inputs: modules.map((module) => module.module),
    modules,
    mint: (provenance) => testResultRecord({ suite, passed, failed, skipped, durationMs, selector }, observedAt, provenance),
  }
}

function planTestResults(modules: readonly ModuleView[], options: NormalizedEvidenceReporterOptions, notes: string[]): PlannedRecord[] {
  if (options.testResults === 'off') return []
  const sorted = [...modules].sort((a, b) => (a.module === b.module ? a.project.localeCompare(b.project) : a.module < b.module ? -1 : 1))
  if (options.testResults === 'per-file') {
    return sorted.flatMap((module) => planTestResult(options.suite, module.module, [module], options.durations, notes) ?? [])
  }
  return (options.testResults as readonly TestResultGroup[]).flatMap((group) => {
    const matcher = globToRegExp(group.selector)
    const included = sorted.filter((module) => matcher.test(module.module))
    return included.length === 0 ? [] : (planTestResult(group.suite, group.selector, included, options.durations, notes) ?? [])
  })
}

/**
 * What the run's results allow to be minted, and nothing more: one `trace_conformance` per check
 * group whose tests all ran, one `contract_result` per contract whose declared vectors all ran,
 * one `test_result` per module (or group) in which something ran to a result. Independent of the
 * order modules arrive in, so a merged sharded run plans what a single run plans.
 */
export function planEvidence(modules: readonly ModuleView[], options: NormalizedEvidenceReporterOptions): EvidencePlan {
  const notes: string[] = []
  for (const module of modules) {
    for (const test of module.tests) {
      if (test.meta.problems.length > 0 && !test.meta.trace && !test.meta.vector) notes.push(`${test.fullName}: ${test.meta.problems[0]}`)
    }
  }
  const records = [...planTraceGroups(modules, notes), ...planContracts(modules, notes), ...planTestResults(modules, options, notes)].sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0))
  return { records, notes: notes.sort() }
}
