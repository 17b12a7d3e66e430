import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { scratchDir } from '../../test/helpers/provider.js'
import { runCli } from '../../test/helpers/cli.js'
import { parseArgs } from './args.js'
import { runServe, serveCommand } from './serve.js'

const SCENARIO = 'scenario: hello\nturns:\n  - text: "hello from the scenario"\n'

async function serveInProcess(argv: string[], cwd: string) {
  let stdout = ''
  let stop: () => void = () => undefined
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  let announced: () => void = () => undefined
  const ready = new Promise<void>((resolve) => (announced = resolve))
  const io = { stdout: { write: (chunk: string) => ((stdout += chunk), announced(), true) }, stderr: { write: () => true }, stdin: Readable.from([]), cwd, env: {} }
  const code = runServe(parseArgs(argv, serveCommand.options), io, stopped)
  await Promise.race([ready, code])
  return { handshake: () => stdout, stop, code }
}

describe('vitest-harness serve', () => {
  it('prints exactly one handshake line, serves the scenario, records requests, and stops when asked', async () => {
    const dir = scratchDir()
    writeFileSync(join(dir, 'hello.yaml'), SCENARIO)
    const served = await serveInProcess(['--scenario', 'hello.yaml', '--record-requests', 'requests.jsonl', '--port', '0'], dir)
    const handshake = served.handshake()
    expect(handshake).toMatch(/^\{"base_url":"http:\/\/127\.0\.0\.1:\d+\/v1","scenario":"hello"\}\n$/)
    const { base_url: baseUrl } = JSON.parse(handshake) as { base_url: string }
    const answer = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) })
    expect(((await answer.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('hello from the scenario')
    served.stop()
    expect(await served.code).toBe(0)
    expect(served.handshake()).toBe(handshake)
    expect(readFileSync(join(dir, 'requests.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(1)
  })

  it('records a scenario into a cassette, then serves the cassette', async () => {
    const dir = scratchDir()
    writeFileSync(join(dir, 'hello.yaml'), SCENARIO)
    const recording = await serveInProcess(['--scenario', 'hello.yaml', '--cassette', 'hello.cassette.jsonl', '--mode', 'record'], dir)
    const { base_url: recordUrl } = JSON.parse(recording.handshake()) as { base_url: string }
    const first = await (await fetch(`${recordUrl}/responses`, { method: 'POST', body: '{"model":"m","input":"hi","stream":true}' })).text()
    recording.stop()
    await recording.code
    const replaying = await serveInProcess(['--cassette', 'hello.cassette.jsonl'], dir)
    const { base_url: replayUrl, scenario } = JSON.parse(replaying.handshake()) as { base_url: string; scenario: string }
    expect(scenario).toBe('hello')
    expect(await (await fetch(`${replayUrl}/responses`, { method: 'POST', body: '{"model":"m","input":"hi","stream":true}' })).text()).toBe(first)
    replaying.stop()
    await replaying.code
  })

  it.each([
    [['serve'], /serve needs --cassette FILE or --scenario FILE/],
    [['serve', '--scenario', 'x.yaml', '--port', 'eighty'], /--port must be an integer/],
    [['serve', '--scenario', 'x.yaml', '--mode', 'wild'], /--mode must be one of replay, record, auto, passthrough/],
    [['serve', '--cassette', '/no/such.cassette.jsonl'], /VH_CASSETTE_MISSING: the cassette \/no\/such.cassette.jsonl does not exist/],
  ])('%j exits 2 with `error: …`', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(message)
  })

  it('refuses record mode in CI', async () => {
    const dir = scratchDir()
    writeFileSync(join(dir, 'hello.yaml'), SCENARIO)
    const run = await runCli(['serve', '--scenario', 'hello.yaml', '--cassette', 'c.jsonl', '--mode', 'record'], { cwd: dir, env: { CI: 'true' } })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: VH_MODE_REFUSED_IN_CI: mode record is refused because CI is set/)
  })
})
