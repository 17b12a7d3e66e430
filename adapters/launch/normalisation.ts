import type { NormalisationRule } from './declaration.js'

/**
 * The volatile values every harness writes — uuids, ISO clocks, `*_ms` timings, per-process socket
 * paths — and their placeholders. A declaration's own `normalised` rules run after these.
 */
export const SHARED_NORMALISATION: readonly NormalisationRule[] = [
  { what: 'uuids', pattern: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', replacement: '<uuid>' },
  { what: 'ISO-8601 timestamps', pattern: '\\d{4}-\\d{2}-\\d{2}T\\d{2}[:-]\\d{2}[:-]\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?', replacement: '<timestamp>' },
  { what: '`*_ms` durations', pattern: '"(\\w+_ms)":\\d+(?:\\.\\d+)?', replacement: '"$1":0' },
  { what: "Claude Code's per-process socket path", pattern: 'cc-socks/\\d+\\.sock', replacement: 'cc-socks/<pid>.sock' },
]

/** Applies the rules in order, each globally. */
export function applyNormalisation(text: string, rules: readonly NormalisationRule[]): string {
  let out = text
  for (const rule of rules) out = out.replace(new RegExp(rule.pattern, 'g'), rule.replacement)
  return out
}
