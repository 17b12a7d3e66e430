import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../../src/trace/check/check.js'
import { readSpec } from '../../../src/trace/spec/read.js'

// Shell calls whose command exited nonzero, where the harness's own error flag says false or
// nothing: OpenClaw's Harbor converter keeps the exit code in a result step's `extra`
// (`exec_exit_code`, `exec_status`), dsh's bash tool ends the output with `[exit code: N]`, hermes'
// `terminal` answers `{output, exit_code, error}` on a row with no flag at all. Read by the flag alone, "no shell call
// failed" held over OpenClaw runs whose `pytest` failed and whose `gws` was not found (127). Each
// count here is taken from the raw JSON, never from the reader.
const WILD = resolve(import.meta.dirname, '../../fixtures/wild')

type Json = Record<string, unknown>
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** OpenClaw: the exec calls whose result step says they failed — a nonzero exit, a failed status, or the flag. */
function failedOpenClawExecs(path: string): number {
  const steps = ((JSON.parse(readFileSync(path, 'utf8')) as Json)['steps'] as unknown[]).filter(isJson)
  const execs = new Set(steps.flatMap((step) => (Array.isArray(step['tool_calls']) ? step['tool_calls'] : []).filter(isJson).filter((call) => call['function_name'] === 'exec').map((call) => call['tool_call_id'])))
  return steps.filter((step) => {
    const extra = isJson(step['extra']) ? step['extra'] : {}
    const code = extra['exec_exit_code']
    return execs.has(extra['tool_call_id']) && ((typeof code === 'number' && code !== 0) || extra['exec_status'] === 'failed' || extra['exec_status'] === 'error' || extra['isError'] === true)
  }).length
}

/** dsh: the bash results flagged as errors, or whose text's last line is `[exit code: N]` with N not 0. */
function failedDshBash(path: string): number {
  const records = readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Json)
  const bash = new Set<unknown>()
  let failed = 0
  for (const record of records) {
    const data = isJson(record['data']) ? record['data'] : {}
    const message = isJson(data['message']) ? data['message'] : {}
    const blocks = Array.isArray(message['content']) ? message['content'].filter(isJson) : []
    if (record['type'] === 'assistant/message') for (const block of blocks) if (block['type'] === 'tool-call' && block['name'] === 'bash') bash.add(block['id'])
    if (record['type'] !== 'tool/result') continue
    for (const block of blocks) {
      if (block['type'] !== 'tool-result' || !bash.has(block['toolCallId'])) continue
      const text = (Array.isArray(block['content']) ? block['content'] : []).filter(isJson).map((part) => String(part['text'] ?? '')).join('\n')
      const last = text.trimEnd().split('\n').at(-1) ?? ''
      if (block['isError'] === true || (/^\[exit code: -?\d+\]$/.test(last) && last !== '[exit code: 0]')) failed += 1
    }
  }
  return failed
}

/** hermes: the terminal and execute_code rows whose JSON answer says the call failed — a nonzero exit hermes gives no meaning to, an error, an error status. */
function failedHermesShell(path: string): number {
  const messages = ((JSON.parse(readFileSync(path, 'utf8')) as Json)['messages'] as unknown[]).filter(isJson)
  const shell = new Set(messages.flatMap((message) => (Array.isArray(message['tool_calls']) ? message['tool_calls'] : []).filter(isJson).filter((call) => ['terminal', 'execute_code'].includes(String((call['function'] as Json)['name']))).map((call) => call['id'])))
  return messages.filter((message) => {
    if (message['role'] !== 'tool' || !shell.has(message['tool_call_id'])) return false
    let answer: Json
    try {
      answer = JSON.parse(String(message['content'])) as Json
    } catch {
      return false
    }
    const code = answer['exit_code']
    return (typeof code === 'number' && code !== 0 && answer['exit_code_meaning'] === undefined) || (typeof answer['error'] === 'string' && answer['error'] !== '') || answer['status'] === 'error'
  }).length
}

const CASES = [
  ...readdirSync(join(WILD, 'atif')).filter((name) => name.includes('openclaw')).map((name) => ({ path: join(WILD, 'atif', name), failures: failedOpenClawExecs(join(WILD, 'atif', name)) })),
  ...readdirSync(join(WILD, 'dsh')).filter((name) => name.endsWith('.jsonl')).map((name) => ({ path: join(WILD, 'dsh', name), failures: failedDshBash(join(WILD, 'dsh', name)) })),
  ...readdirSync(join(WILD, 'hermes')).filter((name) => name.endsWith('.json')).map((name) => ({ path: join(WILD, 'hermes', name), failures: failedHermesShell(join(WILD, 'hermes', name)) })),
].map((entry) => ({ ...entry, name: entry.path.slice(WILD.length + 1) }))

const spec = (failures: number) =>
  readSpec(`format: trace-spec/1
id: shell-failures
expectations:
  - id: at-least-as-counted
    expect: {tool.failed: {operations: [shell], count: {at_least: ${failures}}}}
  - id: none-failed
    expect: {tool.failed: {operations: [shell], count: {exactly: 0}}}
`)

describe('shell calls that exited nonzero are failed calls, whatever the harness’s flag says', () => {
  it('the corpus holds such calls: OpenClaw, dsh and hermes runs with some', () => {
    const failing = CASES.filter((entry) => entry.failures > 0).map((entry) => entry.name.split('/')[0])
    expect(failing.filter((folder) => folder === 'atif').length).toBeGreaterThanOrEqual(4)
    expect(failing.filter((folder) => folder === 'dsh').length).toBeGreaterThanOrEqual(2)
    expect(failing.filter((folder) => folder === 'hermes').length).toBeGreaterThanOrEqual(2)
  })

  it.each(CASES.filter((entry) => entry.failures > 0))('$name: $failures failed shell call(s) are counted, and "none failed" never holds', async ({ path, failures }) => {
    const [counted, none] = (await checkTranscriptFile(spec(failures), path)).expectations
    expect(counted?.verdict).toBe('ok')
    expect(none?.verdict).not.toBe('ok')
  })
})
