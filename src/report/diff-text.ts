import { writeSortedJson } from '../events/json.js'
import { showJsonValue, type JsonDifference } from '../util/json-diff.js'
import type { CallEntry, ResultChange, TrajectoryDiff } from './diff.js'
import type { ShapedCall } from './run-shape.js'
import { terminalSafe } from '../util/terminal-text.js'

function callLine(call: ShapedCall): string {
  return `${terminalSafe(call.name, 60)} ${terminalSafe(writeSortedJson(call.input), 120)}`
}

/** `$.path: A → B` for a diff, where neither side is "expected". */
export function argumentLine(difference: JsonDifference): string {
  switch (difference.kind) {
    case 'changed':
      return `${difference.path}: ${terminalSafe(showJsonValue(difference.expected))} → ${terminalSafe(showJsonValue(difference.actual))}`
    case 'removed':
      return `${difference.path}: removed (was ${terminalSafe(showJsonValue(difference.expected))})`
    case 'added':
      return `${difference.path}: added ${terminalSafe(showJsonValue(difference.actual))}`
  }
}

function resultLines(change: ResultChange): string[] {
  const size = (side: ResultChange['before']) => (side === null ? 'no result' : `${side.bytes} B${side.isError ? ' (error)' : ''}`)
  const lines = [`result: ${size(change.before)} → ${size(change.after)}`]
  const first = change.firstLine
  if (first) lines.push(`  first difference at line ${first.line}: ${first.before === null ? '(none)' : JSON.stringify(terminalSafe(first.before, 100))} → ${first.after === null ? '(none)' : JSON.stringify(terminalSafe(first.after, 100))}`)
  return lines
}

function entryLines(entry: CallEntry): string[] {
  switch (entry.kind) {
    case 'same':
      return []
    case 'removed':
      return [`  - removed  A#${entry.a.index} ${callLine(entry.a)}`]
    case 'added':
      return [`  + added    B#${entry.b.index} ${callLine(entry.b)}`]
    case 'changed':
      return [
        `  ~ changed  A#${entry.a.index} → B#${entry.b.index} ${terminalSafe(entry.a.name, 60)}`,
        ...entry.arguments.map((difference) => `      ${argumentLine(difference)}`),
        ...(entry.result ? resultLines(entry.result).map((line) => `      ${line}`) : []),
      ]
  }
}

/** The diff for a person: the two runs, then only what differs, then `same` or the count. */
export function diffToText(diff: TrajectoryDiff): string {
  const count = (kind: CallEntry['kind']) => diff.calls.filter((entry) => entry.kind === kind).length
  const lines = [
    `A ${terminalSafe(diff.a.source)} (${diff.a.adapter}, ${diff.a.events} event(s), ${diff.a.calls} tool call(s))`,
    `B ${terminalSafe(diff.b.source)} (${diff.b.adapter}, ${diff.b.events} event(s), ${diff.b.calls} tool call(s))`,
    `tool calls: ${count('same')} same, ${count('changed')} changed, ${count('removed')} removed, ${count('added')} added`,
    ...diff.calls.flatMap(entryLines),
  ]
  if (diff.texts.length > 0) {
    lines.push(`text: ${diff.texts.length} difference(s)`)
    for (const entry of diff.texts) {
      lines.push(entry.kind === 'removed' ? `  - A#${entry.a.index} ${JSON.stringify(terminalSafe(entry.a.text))}` : `  + B#${entry.b.index} ${JSON.stringify(terminalSafe(entry.b.text))}`)
    }
  }
  for (const delta of diff.usage) {
    const change = delta.after - delta.before
    lines.push(`usage: ${delta.field} ${delta.before} → ${delta.after} (${change > 0 ? '+' : ''}${change})`)
  }
  for (const change of diff.verdicts) lines.push(`verdict: ${terminalSafe(change.id)} ${change.before ?? 'absent'} → ${change.after ?? 'absent'}`)
  lines.push(diff.differences === 0 ? 'same: the runs match call for call, in text and in usage' : `different: ${diff.differences} difference(s)`)
  return `${lines.join('\n')}\n`
}
