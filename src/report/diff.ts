import { writeSortedJson } from '../events/json.js'
import type { RowVerdict } from '../trace/report-types.js'
import { diffJson, type JsonDifference } from '../util/json-diff.js'
import { alignSequences, type AlignStep } from './align.js'
import type { RunShape, ShapedCall, ShapedText, ShapedUsage } from './run-shape.js'

/** How a result differs: its size, its error flag, and the first line that is not the same. */
export interface ResultChange {
  before: { bytes: number; isError: boolean | null } | null
  after: { bytes: number; isError: boolean | null } | null
  /** 1-based line of the first difference, with both lines (null where one side has no such line). */
  firstLine: { line: number; before: string | null; after: string | null } | null
}

/** One tool call of either run, aligned. `changed` means the same tool at the same place, with other arguments or another result. */
export type CallEntry =
  | { kind: 'same'; a: ShapedCall; b: ShapedCall }
  | { kind: 'changed'; a: ShapedCall; b: ShapedCall; arguments: JsonDifference[]; result: ResultChange | null }
  | { kind: 'removed'; a: ShapedCall }
  | { kind: 'added'; b: ShapedCall }

export type TextEntry = { kind: 'removed'; a: ShapedText } | { kind: 'added'; b: ShapedText }

export interface UsageDelta {
  field: keyof ShapedUsage
  before: number
  after: number
}

export interface VerdictChange {
  id: string
  before: RowVerdict | null
  after: RowVerdict | null
}

export interface RunSide {
  source: string
  adapter: string
  events: number
  calls: number
}

/** A trajectory diff: two runs compared call by call, then text, usage and verdicts. */
export interface TrajectoryDiff {
  a: RunSide
  b: RunSide
  calls: CallEntry[]
  texts: TextEntry[]
  usage: UsageDelta[]
  verdicts: VerdictChange[]
  /** How many differences there are in all; 0 means the runs are the same. */
  differences: number
}

function callKey(call: ShapedCall): string {
  return `${call.name}\u0000${writeSortedJson(call.input)}`
}

function byteLength(text: string | null): number {
  return text === null ? 0 : Buffer.byteLength(text)
}

function firstDifferentLine(before: string, after: string): ResultChange['firstLine'] {
  const a = before.split('\n')
  const b = after.split('\n')
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return { line: i + 1, before: a[i] ?? null, after: b[i] ?? null }
  }
  return null
}

/** How two calls' results differ, or null when they say the same. */
export function compareResults(a: ShapedCall, b: ShapedCall): ResultChange | null {
  const before = a.result
  const after = b.result
  if (before === null && after === null) return null
  if (before !== null && after !== null && before.content === after.content && before.isError === after.isError) return null
  return {
    before: before === null ? null : { bytes: byteLength(before.content), isError: before.isError },
    after: after === null ? null : { bytes: byteLength(after.content), isError: after.isError },
    firstLine: before !== null && after !== null && before.content !== after.content ? firstDifferentLine(before.content ?? '', after.content ?? '') : null,
  }
}

/** Turns one run of unmatched steps into entries: a removed and an added call of the same tool, in order, are one changed call. */
function resolveGap(gap: AlignStep[], a: readonly ShapedCall[], b: readonly ShapedCall[], out: CallEntry[]): void {
  const added = gap.flatMap((step) => (step.op === 'added' ? [step.b] : []))
  const partnerOf = new Map<number, number>()
  const taken = new Set<number>()
  let from = 0
  for (const step of gap) {
    if (step.op !== 'removed') continue
    const name = (a[step.a] as ShapedCall).name
    for (let k = from; k < added.length; k++) {
      const candidate = added[k] as number
      if ((b[candidate] as ShapedCall).name === name) {
        partnerOf.set(step.a, candidate)
        taken.add(candidate)
        from = k + 1
        break
      }
    }
  }
  for (const step of gap) {
    if (step.op === 'removed') {
      const left = a[step.a] as ShapedCall
      const partner = partnerOf.get(step.a)
      if (partner === undefined) out.push({ kind: 'removed', a: left })
      else {
        const right = b[partner] as ShapedCall
        out.push({ kind: 'changed', a: left, b: right, arguments: diffJson(left.input, right.input), result: compareResults(left, right) })
      }
    } else if (step.op === 'added' && !taken.has(step.b)) out.push({ kind: 'added', b: b[step.b] as ShapedCall })
  }
}

/** Aligns the tool calls of two runs by sequence on (name, arguments). */
export function alignCalls(a: readonly ShapedCall[], b: readonly ShapedCall[]): CallEntry[] {
  const keysA = a.map(callKey)
  const keysB = b.map(callKey)
  const steps = alignSequences(
    keysA.map((_, i) => i),
    keysB.map((_, j) => j),
    (i, j) => keysA[i] === keysB[j],
  )
  const out: CallEntry[] = []
  let gap: AlignStep[] = []
  for (const step of steps) {
    if (step.op !== 'same') {
      gap.push(step)
      continue
    }
    if (gap.length > 0) resolveGap(gap, a, b, out)
    gap = []
    const left = a[step.a] as ShapedCall
    const right = b[step.b] as ShapedCall
    const result = compareResults(left, right)
    out.push(result === null ? { kind: 'same', a: left, b: right } : { kind: 'changed', a: left, b: right, arguments: [], result })
  }
  if (gap.length > 0) resolveGap(gap, a, b, out)
  return out
}

function alignTexts(a: readonly ShapedText[], b: readonly ShapedText[]): TextEntry[] {
  return alignSequences(a, b, (x, y) => x.text === y.text).flatMap((step): TextEntry[] => {
    if (step.op === 'removed') return [{ kind: 'removed', a: a[step.a] as ShapedText }]
    if (step.op === 'added') return [{ kind: 'added', b: b[step.b] as ShapedText }]
    return []
  })
}

const USAGE_FIELDS: readonly (keyof ShapedUsage)[] = ['requests', 'inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens']

function verdictChanges(a: RunShape, b: RunShape): VerdictChange[] {
  if (a.report === null || b.report === null) return []
  const before = new Map(a.report.expectations.map((row) => [row.id, row.verdict]))
  const after = new Map(b.report.expectations.map((row) => [row.id, row.verdict]))
  const ids = [...new Set([...before.keys(), ...after.keys()])]
  return ids.flatMap((id) => {
    const was = before.get(id) ?? null
    const now = after.get(id) ?? null
    return was === now ? [] : [{ id, before: was, after: now }]
  })
}

function side(run: RunShape): RunSide {
  return { source: run.source, adapter: run.adapter, events: run.events, calls: run.calls.length }
}

/**
 * Compares two runs: tool calls aligned by sequence (an inserted call is one `added`), arguments
 * compared by JSON path, results by content; then the assistant texts, the usage totals and, where
 * both were checked, the verdicts. Call ids and timestamps are not compared: two runs never share them.
 */
export function diffRuns(a: RunShape, b: RunShape): TrajectoryDiff {
  const calls = alignCalls(a.calls, b.calls)
  const texts = alignTexts(a.texts, b.texts)
  const usage = USAGE_FIELDS.flatMap((field) => (a.usage[field] === b.usage[field] ? [] : [{ field, before: a.usage[field], after: b.usage[field] }]))
  const verdicts = verdictChanges(a, b)
  const differences = calls.filter((entry) => entry.kind !== 'same').length + texts.length + usage.length + verdicts.length
  return { a: side(a), b: side(b), calls, texts, usage, verdicts, differences }
}
