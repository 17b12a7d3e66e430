import { E2E_ROOT } from './harness-run.js'

// A harness's own volatile values — ids, clocks, timings, per-process paths — replaced by
// placeholders, so two runs of the same scripted conversation compare equal.
const RULES: [RegExp, string][] = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<timestamp>'],
  [/"(\w+_ms)":\d+(?:\.\d+)?/g, '"$1":0'],
  [/cc-socks\/\d+\.sock/g, 'cc-socks/<pid>.sock'],
]

/** Also replaces the e2e scratch root (it lives under the OS temp dir, which varies by machine). */
export function normaliseHarnessOutput(text: string, root: string = E2E_ROOT): string {
  let out = text.split(root).join('<e2e-root>')
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement)
  return out
}
