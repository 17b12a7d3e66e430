import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../../src/trace/check/check.js'
import { readSpec } from '../../../src/trace/spec/read.js'

// OpenClaw's Harbor converter writes `isError: false` for an `exec` whose command exited nonzero
// and keeps the exit code and status in the result step's `extra`. Read by the flag alone, "no
// shell call failed" held over runs whose `pytest` failed and whose `gws` was not found (127).
const ATIF = resolve(import.meta.dirname, '../../fixtures/wild/atif')
const OPENCLAW = readdirSync(ATIF).filter((name) => name.includes('openclaw'))

type Json = Record<string, unknown>
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The exec calls whose result step says they failed, counted from the raw JSON: a nonzero exit, a failed status, or the flag. */
function failedExecs(path: string): number {
  const trajectory = JSON.parse(readFileSync(path, 'utf8')) as Json
  const steps = (trajectory['steps'] as unknown[]).filter(isJson)
  const execs = new Set(steps.flatMap((step) => (Array.isArray(step['tool_calls']) ? step['tool_calls'] : []).filter(isJson).filter((call) => call['function_name'] === 'exec').map((call) => call['tool_call_id'])))
  let failed = 0
  for (const step of steps) {
    const extra = isJson(step['extra']) ? step['extra'] : {}
    if (!execs.has(extra['tool_call_id'])) continue
    const code = extra['exec_exit_code']
    if ((typeof code === 'number' && code !== 0) || extra['exec_status'] === 'failed' || extra['exec_status'] === 'error' || extra['isError'] === true) failed += 1
  }
  return failed
}

const spec = (failures: number) =>
  readSpec(`format: trace-spec/1
id: exec-failures
expectations:
  - id: none-failed
    expect: {tool.failed: {operations: [shell], count: {exactly: 0}}}
  - id: as-counted
    expect: {tool.failed: {operations: [shell], count: {exactly: ${failures}}}}
`)

describe('OpenClaw exec calls that exited nonzero are failed shell calls', () => {
  it('the corpus holds runs with such calls', () => {
    expect(OPENCLAW.filter((name) => failedExecs(join(ATIF, name)) > 0).length).toBeGreaterThanOrEqual(4)
  })

  it.each(OPENCLAW)('%s: tool.failed counts every exec the raw JSON says failed', async (name) => {
    const failures = failedExecs(join(ATIF, name))
    const report = await checkTranscriptFile(spec(failures), join(ATIF, name))
    const [none, counted] = report.expectations
    expect(counted?.verdict).toBe('ok')
    expect(none?.verdict).toBe(failures === 0 ? 'ok' : 'gap')
  })
})
