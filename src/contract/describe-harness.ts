import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, it, type TestContext } from 'vitest'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import type { ContractObligations } from '../../adapters/obligations.js'
import { findAdapter, adapterIds } from '../../adapters/registry.js'
import type { Command } from '../events/command.js'
import { COMMAND_NAMES } from '../events/format.js'
import { builtInVectorsDir } from '../util/package-info.js'
import { HARNESS_META_KEY, type ContractVectorMeta } from '../vitest/meta.js'
import { checkCapabilities } from './capabilities.js'
import { CHECKLIST_ROWS, checkRow, providerProblem, type NamedVector } from './checklist.js'
import type { ControlClock } from './control/clock.js'
import { gateCommand } from './control/gate.js'
import { contractResultLine, type ContractResult } from '../evidence/contract-result.js'
import { contractResultOf, providerOf } from './contract-result.js'
import type { LoadedVector } from './manifest.js'
import { ContractRefusal, defaultVectorIds, loadContractVectors } from './run-contract.js'
import { isWarning, renderOutcome, type VectorOutcome } from './outcome.js'
import { checkVector, type VectorCheck } from './run-vector.js'

/** Options of {@link describeHarness}. */
export interface DescribeHarnessOptions {
  /** The folder of vector manifests (any depth). Default: the package's own `vectors/<adapter id>`. */
  vectors?: string | URL
  /** Only these vector ids, in this order. An id with no vector is a failing test, never a silent skip. */
  only?: readonly string[]
  /**
   * With the package's own vectors, also the project's vectors beyond the set upstream's contract
   * runs (b10x: upstream's seven). Default: false.
   */
  withProjectVectors?: boolean
  /** The checklist the suite holds the vectors to. Default: the adapter's own declaration; `false` for none. */
  obligations?: ContractObligations | false
  /** The suite's title. Default: `<adapter id> contract`. */
  name?: string
  /** Called once every vector test has run, with the record and its exact line. */
  onContractResult?: (result: ContractResult, line: string) => void | Promise<void>
  /** Writes the `contract_result` line to this file once every vector test has run. */
  contractResultFile?: string
  /** The clock control vectors measure deadlines on. Default: a fresh manual clock per vector. */
  clock?: () => ControlClock
  /** Whether to test the capability declaration (consistency, and each refused command). Default: true. */
  capabilities?: boolean
}

/** What the user's own tests in `extra` can reach: the adapter, the suite's vectors and their outcomes. */
export interface HarnessSuite {
  readonly adapter: HarnessAdapter
  readonly vectors: readonly LoadedVector[]
  /** The vector's check, run once and shared with its own test. */
  check(id: string): Promise<VectorCheck>
}

/** A vector that did not hold (the message names it and the first difference), carrying both sides so the reporter draws a diff. */
class VectorFailedError extends Error {
  readonly code = 'VH_VECTOR_FAILED'
  readonly showDiff: boolean

  constructor(
    readonly outcome: VectorOutcome,
    readonly expected: unknown,
    readonly actual: unknown,
  ) {
    super(renderOutcome(outcome))
    this.name = 'VectorFailedError'
    this.showDiff = expected !== undefined && actual !== undefined
  }
}

const GROUPS: readonly { title: string; kinds: readonly LoadedVector['kind'][] }[] = [
  { title: 'C1 launch', kinds: ['launch', 'launch-refusal'] },
  { title: 'C2 replay', kinds: ['replay'] },
  { title: 'C2 hook input', kinds: ['hook-input'] },
  { title: 'C2 version pair', kinds: ['version-pair'] },
  { title: 'C3 control', kinds: ['control'] },
]

// A well-formed instance of each command, to ask the declaration how it would answer.
const PROBES: Record<(typeof COMMAND_NAMES)[number], Command> = {
  'tool.decide': { command: 'tool.decide', call_id: 'probe', decision: { decision: 'allow' } },
  'frame.set': { command: 'frame.set', frame: {} },
  'message.inject': { command: 'message.inject', text: 'probe' },
  steer: { command: 'steer', text: 'probe' },
  'permission.set': { command: 'permission.set', posture: 'default' },
  interrupt: { command: 'interrupt', reason: 'probe' },
  halt: { command: 'halt', reason: 'probe' },
}

function resolveAdapter(adapter: HarnessAdapter | string): HarnessAdapter {
  if (typeof adapter !== 'string') return adapter
  const found = findAdapter(adapter)
  if (!found) throw new Error(`describeHarness: no adapter is registered as ${JSON.stringify(adapter)}; registered: ${adapterIds().join(', ')}`)
  return found
}

/**
 * The suite's vectors, or the CLI's coded refusal (`VH_NO_VECTORS`) thrown at collection: its
 * message names the folder and how to get vectors, and no stack into the package points away from it.
 */
function loadSuiteVectors(adapter: HarnessAdapter, dir: string): LoadedVector[] {
  try {
    return loadContractVectors(adapter, dir)
  } catch (error) {
    if (!(error instanceof ContractRefusal)) throw error
    const refusal = new ContractRefusal(error.code, `${error.code}: describeHarness(${JSON.stringify(adapter.id)}): ${error.message}`)
    refusal.stack = `${refusal.name}: ${refusal.message}`
    throw refusal
  }
}

function vectorsDir(adapter: HarnessAdapter, vectors: DescribeHarnessOptions['vectors']): string {
  if (vectors === undefined) return join(builtInVectorsDir(), adapter.id)
  return vectors instanceof URL ? fileURLToPath(vectors) : resolve(vectors)
}

/**
 * Declares a harness contract as a Vitest suite: one test per conformance vector, grouped by tier
 * (C1 launch and refusal, C2 replay, hook input and version pair, C3 control), the capability
 * declaration, and the four checklist rows — a reasoned gap is a skipped test carrying its
 * reason, never a pass. The user's own tests in `extra` run inside the same suite. Each vector
 * test attaches its outcome to `task.meta.vitestHarness.vector` for the evidence reporter, and
 * once every vector has run the suite's `contract_result` line is handed to
 * `onContractResult` / written to `contractResultFile`.
 *
 * @example
 * ```ts
 * import { describeHarness } from 'vitest-harness'
 *
 * describeHarness('b10x', { only: ['c1-observe-launch', 'golden-loop-record'] }, ({ check }) => {
 *   it('the golden loop is a ten-event stream', async () => {
 *     expect((await check('golden-loop-record')).actual).toMatch(/session.ended/)
 *   })
 * })
 * ```
 */
export function describeHarness(
  adapterOrId: HarnessAdapter | string,
  options: DescribeHarnessOptions = {},
  extra?: (suite: HarnessSuite) => void,
): void {
  const adapter = resolveAdapter(adapterOrId)
  const dir = vectorsDir(adapter, options.vectors)
  const name = options.name ?? `${adapter.id} contract`
  const capabilities = adapter.capabilities()
  const provider = providerOf(capabilities)
  const only = defaultVectorIds(adapter, { ...options, vectors: options.vectors === undefined ? undefined : dir })
  const available = loadSuiteVectors(adapter, dir)

  describe(name, () => {
    const byId = new Map(available.map((vector) => [vector.id, vector]))
    const selected = only ? only.flatMap((id) => byId.get(id) ?? []) : available
    const missing = only ? only.filter((id) => !byId.has(id)) : []
    const vectorIds = only ? [...only] : available.map((vector) => vector.id)
    const inSuite = new Map(selected.map((vector) => [vector.id, vector]))
    const checks = new Map<string, Promise<VectorCheck>>()
    const reported = new Map<string, VectorOutcome>()
    // Stable across machines and shards: the suite's title and its vectors folder as the run sees it.
    const contract = `${name} · ${relative(process.cwd(), dir) || '.'}`

    const checkOnce = (vector: LoadedVector): Promise<VectorCheck> => {
      let check = checks.get(vector.id)
      if (!check) {
        check =
          vector.adapter === adapter.id
            ? checkVector(vector, adapter, options.clock ? { clock: options.clock } : {})
            : Promise.resolve({
                outcome: { id: vector.id, tier: vector.tier, passed: false, detail: `the vector is ${vector.adapter}'s, not ${adapter.id}'s` },
              })
        checks.set(vector.id, check)
      }
      return check
    }

    const vectorTest = (vector: LoadedVector) => async (context: TestContext) => {
      const check = await checkOnce(vector)
      const { outcome } = check
      const meta: ContractVectorMeta = { contract, adapter: adapter.id, provider, vectorIds, outcome, observedAt: Date.now() }
      context.task.meta[HARNESS_META_KEY] = { ...context.task.meta[HARNESS_META_KEY], vector: meta }
      reported.set(vector.id, outcome)
      if (isWarning(outcome)) await context.annotate(renderOutcome(outcome), 'warning')
      if (!outcome.passed) throw new VectorFailedError(outcome, check.expected, check.actual)
    }

    for (const group of GROUPS) {
      const members = selected.filter((vector) => group.kinds.includes(vector.kind))
      if (members.length === 0) continue
      describe(group.title, () => {
        for (const vector of members) it(vector.id, vectorTest(vector))
      })
    }
    if (missing.length > 0) {
      describe('missing vectors', () => {
        for (const id of missing) {
          it(id, () => {
            throw new Error(`no vector ${JSON.stringify(id)} under ${dir}: a contract that names it cannot check it`)
          })
        }
      })
    }

    if (options.capabilities !== false) {
      describe('capabilities', () => {
        it('the declaration is consistent with itself and its vectors', () => {
          const problems = checkCapabilities(adapter, selected)
          if (problems.length > 0) throw new Error(problems.map((problem) => `${problem.code} at ${problem.path}: ${problem.message}`).join('\n'))
        })
        for (const command of COMMAND_NAMES) {
          const support = capabilities.commands[command] ?? { refused: 'UNSUPPORTED_CONTROL' }
          if (support === 'honoured') continue
          it(`refuses ${command} with ${support.refused}`, () => {
            const outcome = gateCommand(capabilities, PROBES[command])
            if (outcome?.result !== 'refused' || outcome.refused.code !== support.refused) {
              throw new Error(`${command} is declared refused with ${support.refused}, and the driver answered ${JSON.stringify(outcome ?? 'nothing')}`)
            }
          })
        }
      })
    }

    const obligations = options.obligations === undefined ? adapter.obligations : options.obligations || undefined
    if (obligations) {
      describe('checklist', () => {
        for (const row of CHECKLIST_ROWS) {
          const obligation = obligations[row.key]
          if ('gap' in obligation && obligation.gap.trim().length > 0) {
            it(row.owed, (context) => context.skip(`gap: ${obligation.gap}`))
            continue
          }
          it(row.owed, async () => {
            const named = new Map<string, NamedVector>()
            for (const id of 'filled' in obligation ? obligation.filled : []) {
              const vector = inSuite.get(id)
              if (vector) named.set(id, { tier: vector.tier, outcome: (await checkOnce(vector)).outcome })
            }
            const verdict = checkRow(row, obligation, named)
            if (verdict.status === 'unmet') throw new Error(verdict.problems.join('\n'))
          })
        }
        it('the contract checks at least one vector', () => {
          if (selected.length === 0) throw new Error('checked is 0: a run that checked nothing also has zero failures, so it asserts nothing')
        })
        it('the record names the adapter and its pin', () => {
          const problem = providerProblem(adapter.id, provider)
          if (problem) throw new Error(problem)
        })
      })
    }

    const check = (id: string): Promise<VectorCheck> => {
      const vector = inSuite.get(id)
      return vector ? checkOnce(vector) : Promise.reject(new Error(`the suite has no vector ${JSON.stringify(id)}`))
    }
    extra?.({ adapter, vectors: selected, check })

    afterAll(async () => {
      // A record is minted only from a suite whose every vector test ran: a partial run is not the contract.
      if (missing.length > 0 || selected.length === 0 || reported.size !== selected.length) return
      if (!options.onContractResult && !options.contractResultFile) return
      const record = contractResultOf(provider, selected.map((vector) => reported.get(vector.id) as VectorOutcome))
      const line = contractResultLine(record)
      if (options.contractResultFile) {
        mkdirSync(dirname(options.contractResultFile), { recursive: true })
        writeFileSync(options.contractResultFile, line)
      }
      await options.onContractResult?.(record, line)
    })
  })
}
