import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { lockCassette, lockPathFor, parseScenario, readCassette, startProvider, type Provider } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'

// Two recorders on one cassette would each write their own interactions over the other's: the
// second is refused (VH_CASSETTE_LOCKED, naming the holder's pid), in one process and across two.
const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const RECORDER = join(import.meta.dirname, 'fixtures', 'record-cassette.ts')
const SCENARIO = parseScenario({ scenario: 'locked', turns: [{ text: 'ok' }] })

interface Recorder {
  readonly child: ChildProcessWithoutNullStreams
  /** Resolves with the first line the recorder says. */
  readonly first: Promise<Record<string, unknown>>
  /** Resolves with every line once it exits. */
  readonly done: Promise<Record<string, unknown>[]>
}

function startRecorder(cassette: string, tag: string, count = 10): Recorder {
  const child = spawn(process.execPath, ['--import', 'tsx', RECORDER, cassette, tag, String(count)], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '' } })
  let out = ''
  let err = ''
  let resolveFirst: (value: Record<string, unknown>) => void = () => undefined
  const first = new Promise<Record<string, unknown>>((resolveLine) => (resolveFirst = resolveLine))
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    const line = out.split('\n')[0]
    if (out.includes('\n') && line) resolveFirst(JSON.parse(line) as Record<string, unknown>)
  })
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const done = new Promise<Record<string, unknown>[]>((resolveDone, rejectDone) =>
    child.on('close', (code) => {
      if (code !== 0 || out === '') return rejectDone(new Error(`the recorder exited ${code}: ${out}\n${err}`))
      const lines = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
      resolveFirst(lines[0] as Record<string, unknown>)
      resolveDone(lines)
    }),
  )
  return { child, first, done }
}

function inputs(cassette: string): string[] {
  return readCassette(cassette).interactions.map((interaction) => (interaction.request.body as { messages: { content: string }[] }).messages[0]?.content ?? '')
}

const tens = (tag: string) => Array.from({ length: 10 }, (_, index) => `${tag}-${index}`)

describe('two recorders on one cassette', () => {
  let provider: Provider | undefined
  afterEach(async () => {
    await provider?.close()
    provider = undefined
  })

  it('in one process: the second scope is refused naming this pid, and may open once the first closes', async () => {
    const root = scratchDir()
    const cassette = join(root, 'shared.cassette.jsonl')
    provider = await startProvider({ env: {}, cassetteRoot: root })
    const first = provider.openScope({ mode: 'record', cassette, scenario: SCENARIO, env: {} })
    expect(() => provider?.openScope({ mode: 'auto', cassette, scenario: SCENARIO, env: {} })).toThrow(expect.objectContaining({ code: 'VH_CASSETTE_LOCKED', location: cassette, message: expect.stringContaining(`process ${process.pid}`) }))
    // Through the control endpoint (what the Vitest fixture calls), too: a coded 400, no scope.
    const scenario = join(root, 'locked.json')
    writeFileSync(scenario, JSON.stringify({ scenario: 'locked', turns: [{ text: 'ok' }] }))
    const control = await fetch(`${provider.origin}/__vitest-harness/scopes`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${provider.controlToken}` }, body: JSON.stringify({ mode: 'record', cassette, scenario }) })
    expect(control.status).toBe(400)
    expect(await control.json()).toMatchObject({ code: 'VH_CASSETTE_LOCKED', error: expect.stringContaining(`process ${process.pid}`) })
    await (await fetch(`${first.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'first' }] }) })).text()
    expect(existsSync(lockPathFor(cassette))).toBe(true)
    provider.closeScope(first.id)
    expect(existsSync(lockPathFor(cassette))).toBe(false)
    const again = provider.openScope({ mode: 'auto', cassette, scenario: SCENARIO, env: {} })
    await (await fetch(`${again.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'second' }] }) })).text()
    provider.closeScope(again.id)
    expect(inputs(cassette)).toEqual(['first', 'second'])
  })

  it('across two processes recording 10 interactions each: the second is refused, the cassette holds the first one’s 10 alone', async () => {
    const cassette = join(scratchDir(), 'shared.cassette.jsonl')
    const a = startRecorder(cassette, 'A')
    expect(await a.first).toEqual({ locked: a.child.pid })
    const b = startRecorder(cassette, 'B')
    const [refusal] = await b.done
    expect(refusal).toEqual({ refused: { code: 'VH_CASSETTE_LOCKED', message: expect.stringContaining(`recorded by process ${a.child.pid}`) } })
    expect((refusal as { refused: { message: string } }).refused.message).toContain(cassette)
    a.child.stdin.write('go\n')
    expect(await a.done).toEqual([{ locked: a.child.pid }, { recorded: 10 }])
    expect(inputs(cassette)).toEqual(tens('A'))
    expect(existsSync(lockPathFor(cassette))).toBe(false)
  }, 60_000)

  it('across two processes started together: exactly one records, never a merge', async () => {
    const cassette = join(scratchDir(), 'raced.cassette.jsonl')
    const recorders = [startRecorder(cassette, 'A'), startRecorder(cassette, 'B')]
    const firsts = await Promise.all(recorders.map((recorder) => recorder.first))
    const winner = firsts.findIndex((line) => 'locked' in line)
    expect(winner).not.toBe(-1)
    const loser = recorders[1 - winner] as Recorder
    expect(firsts[1 - winner]).toMatchObject({ refused: { code: 'VH_CASSETTE_LOCKED', message: expect.stringContaining(`process ${recorders[winner]?.child.pid}`) } })
    await loser.done
    recorders[winner]?.child.stdin.write('go\n')
    await recorders[winner]?.done
    expect(inputs(cassette)).toEqual(tens(winner === 0 ? 'A' : 'B'))
  }, 60_000)

  it('takes over a lock whose process was killed', async () => {
    const cassette = join(scratchDir(), 'stale.cassette.jsonl')
    const killed = startRecorder(cassette, 'K')
    expect(await killed.first).toEqual({ locked: killed.child.pid })
    killed.child.kill('SIGKILL')
    await killed.done.catch(() => undefined)
    expect(JSON.parse(readFileSync(lockPathFor(cassette), 'utf8'))).toMatchObject({ pid: killed.child.pid })
    const lock = lockCassette(cassette)
    expect(lock.holder.pid).toBe(process.pid)
    expect(JSON.parse(readFileSync(lockPathFor(cassette), 'utf8'))).toEqual(lock.holder)
    lock.release()
    expect(existsSync(lockPathFor(cassette))).toBe(false)
  }, 60_000)

  it('takes over a lock naming this pid that this process does not hold (a reused pid), refuses one held by a live process', () => {
    const cassette = join(scratchDir(), 'pid.cassette.jsonl')
    writeFileSync(lockPathFor(cassette), JSON.stringify({ pid: process.pid, id: 'left-by-an-earlier-process' }))
    const lock = lockCassette(cassette)
    expect(lock.holder.id).not.toBe('left-by-an-earlier-process')
    lock.release()
    writeFileSync(lockPathFor(cassette), JSON.stringify({ pid: process.ppid, id: 'the-parent' }))
    expect(() => lockCassette(cassette)).toThrow(expect.objectContaining({ code: 'VH_CASSETTE_LOCKED', message: expect.stringContaining(`process ${process.ppid}`) }))
    expect(JSON.parse(readFileSync(lockPathFor(cassette), 'utf8'))).toEqual({ pid: process.ppid, id: 'the-parent' })
  })

  it('replay takes no lock: a cassette being recorded can be read by others', async () => {
    const cassette = join(scratchDir(), 'read.cassette.jsonl')
    provider = await startProvider({ env: {} })
    const recorder = provider.openScope({ mode: 'record', cassette, scenario: SCENARIO, env: {} })
    await (await fetch(`${recorder.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }) })).text()
    const reader = provider.openScope({ mode: 'replay', cassette, env: {} })
    const replayed = await fetch(`${reader.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }) })
    expect(replayed.status).toBe(200)
    expect(provider.closeScope(reader.id).requests.map((entry) => entry.outcome)).toEqual(['replayed'])
    expect(existsSync(lockPathFor(cassette))).toBe(true)
    provider.closeScope(recorder.id)
  })
})
