import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { codexLaunch } from '../../adapters/codex/launch.js'
import { readEventText } from '../events/read.js'
import { cassetteProvider } from './cassette-provider.js'
import { readStepMapOrThrow } from './map.js'
import { StepMapRun } from './run.js'
import { readWorkflowOrThrow } from './workflow.js'

const FAKE = fileURLToPath(new URL('../../test/fixtures/harnesses/asks-provider.js', import.meta.url))
const WORKFLOW = readWorkflowOrThrow('id: demo/flow\nversion: 1\ntitle: t\ninitial: build\nstates:\n  build: {title: Build}\ntransitions: []\n')
const map = (prompt: string) => readStepMapOrThrow(`format: aep.driver-steps/1\nid: demo/map\nworkflow: demo/flow/1\nstates:\n  build:\n    steps:\n      - {kind: llm, harness: codex, prompt: "${prompt}"}\n`)

async function runOnce(root: string, prompt: string, mode: 'record' | 'replay'): Promise<{ status: string; message: string; text: string }> {
  const run = new StepMapRun(map(prompt), {
    workflow: WORKFLOW,
    workspace: mkdtempSync(join(tmpdir(), 'vh-cassette-ws-')),
    runDirectory: mkdtempSync(join(tmpdir(), 'vh-cassette-run-')),
    harness: { codex: { launch: codexLaunch, program: FAKE } },
    provider: cassetteProvider({ cassettes: join(root, 'cassettes'), scenarios: join(root, 'scenarios'), wire: 'openai-responses', mode, env: {}, match: { replace: [{ pattern: /(?:\/[A-Za-z0-9._@+-]+)+/g, with: '<path>' }] } }),
  })
  const [visit] = run.visits()
  const result = await run.runStep(visit!, 0).finally(() => run.close())
  const text = result.transcript ? readEventText(readFileSync(result.transcript, 'utf8')).events.flatMap((event) => (event.event === 'text' ? [event.text] : [])).join('') : ''
  return { status: result.status, message: result.message, text }
}

// The cassettes are recorded from a scripted scenario into a temporary folder, so the CI rule (never
// record) is lifted here by giving the provider an environment of its own.
describe('cassetteProvider', () => {
  const root = mkdtempSync(join(tmpdir(), 'vh-cassettes-'))
  mkdirSync(join(root, 'scenarios'))
  writeFileSync(join(root, 'scenarios', 'build-0.yaml'), 'scenario: build-0\nturns:\n  - text: "recorded answer"\n')

  it('records a step’s cassette from its scenario, named for the step', async () => {
    const recorded = await runOnce(root, 'say something', 'record')
    expect(recorded).toMatchObject({ status: 'passed', text: 'recorded answer' })
    expect(existsSync(join(root, 'cassettes', 'build-0.cassette.jsonl'))).toBe(true)
  })

  it('replays it, and a request the cassette does not hold is no verdict naming the miss', async () => {
    expect(await runOnce(root, 'say something', 'replay')).toMatchObject({ status: 'passed', text: 'recorded answer' })
    const missed = await runOnce(root, 'say something else', 'replay')
    expect(missed.status).toBe('failed')
    expect(missed.message).toContain(`the provider had no answer for 1 request(s) in ${join(root, 'cassettes', 'build-0.cassette.jsonl')}`)
  })

  it('is no verdict when the provider cannot start (no cassette to replay)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'vh-cassettes-none-'))
    const result = await runOnce(empty, 'x', 'replay')
    expect(result.message).toContain('the loopback provider for this step did not start')
  })

  it('serves every step of a run from one provider, a scope per step, and stops it when the run closes', async () => {
    const provider = cassetteProvider({ cassettes: join(root, 'cassettes'), wire: 'openai-responses', mode: 'replay', env: {} })
    const call = { state: 'build', index: 0, harness: 'codex', cassette: 'build-0' }
    const first = await provider({ ...call, attempt: 1 })
    const second = await provider({ ...call, attempt: 2 })
    expect(new URL(first.baseUrl).origin).toBe(new URL(second.baseUrl).origin)
    expect(first.baseUrl).toMatch(/\/__scope\/[\w-]+\/v1$/)
    expect(second.baseUrl).not.toBe(first.baseUrl)
    expect(await first.close?.()).toBeUndefined()
    expect(await second.close?.()).toBeUndefined()
    await provider.close()
    await expect(fetch(`${first.baseUrl}/responses`, { method: 'POST', body: '{}' })).rejects.toThrow()
  })
})
