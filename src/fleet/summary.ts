import { EXIT, type ExitCode } from '../util/exit-codes.js'
import type { FleetResult } from './messages.js'

/**
 * How bad each exit is, for the fleet's own: a refusal (nothing was judged) outranks a gap, a gap
 * an unknown (as a report's verdict ranks them), an unknown ok.
 */
const SEVERITY: Record<ExitCode, number> = { [EXIT.OK]: 0, [EXIT.UNKNOWN]: 1, [EXIT.GAP]: 2, [EXIT.REFUSAL]: 3 }

/** The fleet's exit: its worst transcript's. */
export function worstExit(results: readonly FleetResult[]): ExitCode {
  let worst: ExitCode = EXIT.OK
  for (const result of results) if (SEVERITY[result.exit] > SEVERITY[worst]) worst = result.exit
  return worst
}

function cells(result: FleetResult): string[] {
  if (result.outcome === 'refused') return ['refused', '-', '-', '-']
  const { summary } = result.report
  return [result.report.verdict, String(summary.ok), String(summary.gap), String(summary.unknown)]
}

/** One row per transcript (verdict, expectation counts, path), then the totals by verdict. */
export function renderFleetSummary(results: readonly FleetResult[], labels: readonly string[]): string {
  const header = ['verdict', 'ok', 'gap', 'unknown', 'transcript']
  const rows = results.map((result, index) => [...cells(result), labels[index] ?? ''])
  const widths = header.slice(0, 4).map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)))
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column < 4 ? (column === 0 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number)) : cell))
      .join('  ')
  const tally = { ok: 0, gap: 0, unknown: 0, refused: 0 }
  for (const result of results) tally[result.outcome === 'refused' ? 'refused' : result.report.verdict] += 1
  const totals = `${results.length} transcript(s): ${tally.ok} ok, ${tally.gap} gap, ${tally.unknown} unknown, ${tally.refused} refused`
  return `${[line(header), ...rows.map(line)].join('\n')}\n${totals}\n`
}
