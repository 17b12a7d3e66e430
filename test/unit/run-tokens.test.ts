import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'

// The same scripted run on every real harness (test/fixtures/refused-calls): two requests, each
// served 42 prompt tokens of which 7 cached and 8 then 4 output tokens. On the OpenAI and Gemini
// wires the prompt counts the cached tokens, so the run read 70 uncached input tokens, 14 cached
// and 12 output, whichever harness recorded it. Before, opencode's and Gemini CLI's conversions
// carried no run usage at all (every bound unknown) and Qwen Code's counted the cache reads as
// input too (84: "at most 75 input tokens" failed a run of 70).
const DIR = resolve(import.meta.dirname, '../fixtures/refused-calls')
const SPEC = readSpec(`format: trace-spec/1
id: run-tokens
expectations:
  - id: input
    expect: {tokens.input: {count: {exactly: 70}}}
  - id: output
    expect: {tokens.output: {count: {exactly: 12}}}
  - id: cached
    expect: {cache.read_tokens: {count: {exactly: 14}}}
  - id: hit-ratio
    expect: {cache.hit_ratio: {at_least: 0.16, at_most: 0.17}}
`)

describe('a run’s tokens, the same whichever harness recorded it', () => {
  it.each(['codex.exec.jsonl', 'codex.rollout.jsonl', 'gemini.stream.jsonl', 'opencode.run.jsonl', 'qwen.stream.jsonl'])('%s', async (file) => {
    const report = await checkTranscriptFile(SPEC, join(DIR, file))
    expect(Object.fromEntries(report.expectations.map((row) => [row.id, row.verdict]))).toEqual({ input: 'ok', output: 'ok', cached: 'ok', 'hit-ratio': 'ok' })
  })
})
