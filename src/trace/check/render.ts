import { escapeForTerminal } from '../../util/terminal-text.js'
import type { TraceReport } from '../report-types.js'
import { describeOutcome, type Outcome } from './outcome.js'
import { describeUnread, type UnreadRecords } from './unread.js'

/** How many hex characters of a digest a heading shows. */
const DIGEST_PREFIX = 12

const verdictWord = (verdict: TraceReport['verdict']) => (verdict === 'unknown' ? 'unk' : verdict)

/**
 * A report for a person, as upstream prints it: a heading with the counts, one row per
 * expectation (`ok`, `gap`, `unk`, `ok (adv)`…) with what the transcript said and the events it
 * cites, the spec digest and adapter, and a footer naming what the report contains.
 */
export function reportToText(report: TraceReport, detail: { unread?: UnreadRecords } = {}): string {
  const { summary } = report
  const lines = [`${report.spec_id} against transcript sha256:${report.transcript_digest.slice(0, DIGEST_PREFIX)}… — ${summary.ok} ok, ${summary.gap} gap, ${summary.unknown} unk`]
  if (report.spec_title !== null) lines.push(`  ${report.spec_title}`)
  const width = Math.max(0, ...report.expectations.map((row) => row.id.length))
  for (const row of report.expectations) {
    const status = row.severity === 'gate' ? verdictWord(row.verdict) : `${verdictWord(row.verdict)} (adv)`
    lines.push(`  ${status.padEnd(9)} ${row.id.padEnd(width)}  ${describeRow(row.outcome as Outcome, detail.unread)}`)
  }
  lines.push(`spec sha256:${report.spec_digest.slice(0, DIGEST_PREFIX)}…  adapter ${report.adapter.name}`)
  if (report.advisory_overrides.length > 0) {
    lines.push(`note: downgraded to advisory on the command line: ${report.advisory_overrides.join(', ')} — the specification's digest is the document as authored`)
  }
  lines.push(
    report.redacted
      ? `note: redacted — every citation is an event index and a digest, no transcript content. Transcript sha256:${report.transcript_digest}`
      : `note: this report quotes command strings and file paths read out of the transcript; \`--redact\` replaces them with digests. Transcript sha256:${report.transcript_digest}`,
  )
  // Ids, titles, notes and tool names come out of the spec and the transcript.
  return escapeForTerminal(`${lines.join('\n')}\n`)
}

/** A row's explanation: an unread-records row counts the records by type and names their first lines when the tally is at hand. */
function describeRow(outcome: Outcome, unread: UnreadRecords | undefined): string {
  if (outcome.outcome === 'undecidable' && outcome.reason === 'opaque_events' && unread !== undefined && unread.total > 0) return describeUnread(unread)
  return describeOutcome(outcome)
}

/** The sentence that says what the verdict means and which exit code it calls for. */
export function verdictSentence(report: TraceReport): string {
  return escapeForTerminal(verdictSentenceText(report))
}

function verdictSentenceText(report: TraceReport): string {
  const gating = report.expectations.filter((row) => row.severity === 'gate')
  switch (report.verdict) {
    case 'ok':
      return report.summary.unknown > 0
        ? `conformant: every gating expectation holds; ${report.summary.unknown + report.summary.advisory_gap} advisory or undecidable row(s) are reported and gate nothing (exit 0)`
        : 'conformant: the run satisfies every expectation the specification states (exit 0)'
    case 'gap': {
      const gapped = gating.filter((row) => row.verdict === 'gap').map((row) => row.id)
      return `not conformant: the run contradicted ${gapped.length} expectation(s) — ${gapped.join(', ')} (exit 1)`
    }
    case 'unknown':
      return `undecided: nothing was contradicted and ${gating.filter((row) => row.verdict === 'unknown').length} expectation(s) could not be judged from this transcript — somebody should look at the format, not at the agent (exit 3)`
  }
}
