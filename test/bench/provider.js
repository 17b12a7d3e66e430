// Replayed streamed responses per second and p50/p99 latency, at 1 and 50 concurrent clients:
// the loopback provider replaying a cassette, beside a bare node:http server writing the same
// precomputed bytes and beside @copilotkit/aimock serving the same content, all in one run.
// Each server runs in its own process and the load comes from another, so the server's CPU is its own.
import { spawn } from 'node:child_process'
import { createServer, request, Agent } from 'node:http'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SECONDS = Number(process.env['BENCH_PROVIDER_SECONDS'] ?? 10)
const ROUNDS = 5
const CONCURRENCY = [1, 50]
const TEXT = 'Reading the readme, then the tests, and keeping every change small and reviewed. '.repeat(16).trim()
const CALL = { name: 'read_file', arguments: { path: 'README.md', limit: 200 } }
const BODY = JSON.stringify({
  model: 'claude-bench',
  max_tokens: 1024,
  stream: true,
  messages: [{ role: 'user', content: 'read the readme' }],
  tools: [{ name: 'read_file', description: 'Read one text file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
})

function childJson(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${args.join(' ')} exited ${code}`))))
  })
}

/** Starts a server child; resolves with its port and a stop() that returns its peak RSS. */
function startServer(kind, cassette) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', 'server', kind, cassette], { stdio: ['pipe', 'pipe', 'inherit'] })
    let out = ''
    let port
    child.stdout.on('data', (chunk) => {
      out += chunk
      const lines = out.split('\n')
      if (lines.length < 2 || port !== undefined) return
      port = JSON.parse(lines[0]).port
      resolve({
        port,
        stop: () =>
          new Promise((done) => {
            child.on('close', () => done(JSON.parse(out.trimEnd().split('\n').at(-1))))
            child.stdin.end('stop\n')
          }),
      })
    })
    child.on('error', reject)
  })
}

async function recordFixture() {
  const { startProvider, parseScenario, readCassette, frameBytes } = await import('../../dist/recorders/index.js')
  const dir = mkdtempSync(join(tmpdir(), 'vh-bench-provider-'))
  const cassette = join(dir, 'bench.cassette.jsonl')
  const scenario = parseScenario({ scenario: 'bench', turns: [{ text: TEXT, tool_calls: [CALL] }] })
  const recorder = await startProvider({ mode: 'record', scenario, cassette, env: {} })
  await (await fetch(`${recorder.origin}/v1/messages`, { method: 'POST', body: BODY })).text()
  await recorder.close()
  const frames = readCassette(cassette).interactions[0].response.frames
  return { cassette, bytes: Buffer.from(frames.map(frameBytes).join('')) }
}

async function serverChild(kind, cassette) {
  let close
  let port
  if (kind === 'subject') {
    const { startProvider } = await import('../../dist/recorders/index.js')
    const provider = await startProvider({ mode: 'replay', cassette, env: {} })
    port = provider.port
    close = () => provider.close()
  } else if (kind === 'bare') {
    const { readCassette, frameBytes } = await import('../../dist/recorders/index.js')
    const interaction = readCassette(cassette).interactions[0]
    const frames = interaction.response.frames.map((frame) => Buffer.from(frameBytes(frame)))
    const headers = { 'cache-control': 'no-store', ...interaction.response.headers }
    const server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        // The same precomputed bytes in the same writes (one chunk per frame, corked), nothing else:
        // the ratio is the provider's own overhead (routing, matching, logging).
        res.writeHead(200, headers)
        res.cork()
        for (const frame of frames) res.write(frame)
        res.end()
        res.uncork()
      })
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = server.address().port
    close = () => new Promise((resolve) => server.close(resolve))
  } else {
    const { LLMock } = await import('@copilotkit/aimock')
    const mock = new LLMock({ port: 0, host: '127.0.0.1', chunkSize: Math.ceil(TEXT.length / 2), journalMaxEntries: 1 })
    mock.onMessage(/read the readme/, { content: TEXT, toolCalls: [{ name: CALL.name, arguments: JSON.stringify(CALL.arguments) }] })
    await mock.start()
    port = mock.port
    close = () => mock.stop()
  }
  process.stdout.write(`${JSON.stringify({ port })}\n`)
  process.stdin.resume()
  process.stdin.on('data', async () => {
    await close()
    process.stdout.write(`${JSON.stringify({ peakMiB: process.resourceUsage().maxRSS / 1024 })}\n`)
    process.exit(0)
  })
}

async function clientChild(port, concurrency, seconds, expectedFile) {
  const expected = expectedFile === '-' ? undefined : readFileSync(expectedFile)
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint()
      const req = request({ host: '127.0.0.1', port, path: '/v1/messages', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY), 'x-api-key': 'bench' } }, (res) => {
        const chunks = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, ok: res.statusCode === 200, body: Buffer.concat(chunks) }))
      })
      req.on('error', reject)
      req.end(BODY)
    })
  // Warm up, then measure for a fixed time.
  const warmUntil = Date.now() + 200
  await Promise.all(Array.from({ length: concurrency }, async () => { while (Date.now() < warmUntil) await once() }))
  const latencies = []
  let mismatched = 0
  let failed = 0
  const began = process.hrtime.bigint()
  const until = Date.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const result = await once()
        latencies.push(result.ms)
        if (!result.ok || result.body.length === 0) failed += 1
        else if (expected && !result.body.equals(expected)) mismatched += 1
      }
    }),
  )
  const elapsed = Number(process.hrtime.bigint() - began) / 1e9
  latencies.sort((a, b) => a - b)
  const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
  agent.destroy()
  process.stdout.write(JSON.stringify({ count: latencies.length, rate: latencies.length / elapsed, p50: pick(0.5), p99: pick(0.99), mismatched, failed }))
}

export async function run() {
  const { cassette, bytes } = await recordFixture()
  const expectedFile = join(mkdtempSync(join(tmpdir(), 'vh-bench-expected-')), 'expected.sse')
  ;(await import('node:fs')).writeFileSync(expectedFile, bytes)
  // All three servers up at once; the cells are measured in interleaved rounds and the median
  // round is kept, so a neighbour's load on this shared machine hits every subject alike.
  const kinds = ['bare', 'subject', 'aimock']
  const servers = {}
  for (const kind of kinds) servers[kind] = await startServer(kind, cassette)
  const samples = {}
  for (const kind of kinds) samples[kind] = { 1: [], 50: [] }
  for (let round = 0; round < ROUNDS; round++) {
    for (const concurrency of CONCURRENCY) {
      const order = round % 2 === 0 ? kinds : [...kinds].reverse()
      for (const kind of order) {
        samples[kind][concurrency].push(await childJson(['client', String(servers[kind].port), String(concurrency), String(SECONDS / ROUNDS), kind === 'aimock' ? '-' : expectedFile]))
      }
    }
  }
  const median = (cells) => {
    const sorted = [...cells].sort((a, b) => a.rate - b.rate)
    const middle = sorted[Math.floor(sorted.length / 2)]
    return { ...middle, mismatched: cells.reduce((sum, cell) => sum + cell.mismatched, 0), failed: cells.reduce((sum, cell) => sum + cell.failed, 0) }
  }
  const results = {}
  for (const kind of kinds) {
    results[kind] = { 1: median(samples[kind][1]), 50: median(samples[kind][50]) }
    results[kind].peakMiB = (await servers[kind].stop()).peakMiB
  }
  const label = { bare: 'bare node:http', subject: 'vitest-harness provider', aimock: '@copilotkit/aimock' }
  const rows = [`provider replay — streamed Anthropic Messages answer (${bytes.length} bytes; ${ROUNDS} interleaved rounds of ${SECONDS / ROUNDS}s per cell, median kept; servers and load in separate processes)`]
  let met = true
  for (const concurrency of CONCURRENCY) {
    rows.push(`  ${concurrency} client(s):`)
    for (const kind of ['bare', 'subject', 'aimock']) {
      const cell = results[kind][concurrency]
      rows.push(`    ${label[kind].padEnd(24)} ${Math.round(cell.rate).toLocaleString('en-US').padStart(8)} responses/s   p50 ${cell.p50.toFixed(2)} ms   p99 ${cell.p99.toFixed(2)} ms${cell.mismatched || cell.failed ? `   ${cell.mismatched} mismatched, ${cell.failed} failed` : ''}`)
    }
    const ofBare = results.subject[concurrency].rate / results.bare[concurrency].rate
    const overAimock = results.subject[concurrency].rate / results.aimock[concurrency].rate
    const exact = results.subject[concurrency].mismatched === 0 && results.subject[concurrency].failed === 0
    rows.push(`    ratio ${ofBare.toFixed(2)} of bare (target ≥ 0.80) ${ofBare >= 0.8 ? 'MET' : 'MISSED'} · ${overAimock.toFixed(2)}× aimock (target > 1) ${overAimock > 1 ? 'MET' : 'MISSED'} · bytes ${exact ? 'identical' : 'DIFFERENT'}`)
    met &&= ofBare >= 0.8 && overAimock > 1 && exact
  }
  rows.push(`  server peak memory: bare ${results.bare.peakMiB.toFixed(0)} MiB · provider ${results.subject.peakMiB.toFixed(0)} MiB · aimock ${results.aimock.peakMiB.toFixed(0)} MiB`)
  console.log(rows.join('\n'))
  return met
}

if (process.argv[2] === '--child') {
  const [, , , task, ...args] = process.argv
  if (task === 'server') await serverChild(args[0], args[1])
  else await clientChild(Number(args[0]), Number(args[1]), Number(args[2]), args[3])
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = (await run()) ? 0 : 1
}
