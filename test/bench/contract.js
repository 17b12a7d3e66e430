// 1,000 generated b10x replay vectors run through describeHarness, beside the same comparisons
// written as plain `it` blocks over the same manifests (loadVectors, replay, compare), both run by
// Vitest in the same run, each in its own child process, the package loaded as an installed one is.
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { measureInChild } from './lib.js'

const VECTORS = Number(process.env['BENCH_CONTRACT_VECTORS'] ?? 1_000)
const ROUNDS = Number(process.env['BENCH_CONTRACT_ROUNDS'] ?? 5)
const TARGET = 1.5
const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const DIST = (path) => JSON.stringify(pathToFileURL(join(REPO, 'dist', path)).href)
const root = join(tmpdir(), `vitest-harness-bench-contract-${VECTORS}`)
const vectors = join(root, 'vectors')

const SEAM = { run: 'bench', harnessVersion: '0.12.1', model: 'b10x-emulated', cwd: '/scratch/vh/work', transcriptPath: '/scratch/vh/loop.jsonl' }

// A small loop of its own per vector, so no two comparisons are the same bytes.
function loopOf(index) {
  const call = `call_${index}`
  return [
    `{"kind":"started","model":"b10x-emulated","published_tools":["file_read","search"],"operations":["file.read","search"],"withheld":[],"skills":[],"agents":[],"credential_source":"api-key:environment"}`,
    `{"kind":"turn-started","turn":1}`,
    `{"kind":"usage","model":"b10x-emulated","input_tokens":${1000 + index},"output_tokens":${index % 97},"cached_input_tokens":${index % 13}}`,
    `{"kind":"tool-requested","call_id":"${call}","name":"file_read","arguments":{"path":"src/file-${index}.rs"}}`,
    `{"kind":"tool-completed","call_id":"${call}","failed":${index % 17 === 0}}`,
    `{"kind":"text-delta","text":"Read src/file-${index}.rs"}`,
    `{"kind":"finished","stop":{"kind":"completed"},"turns":1}`,
  ].join('\n') + '\n'
}

async function generate() {
  const { replayB10xLoop } = await import(pathToFileURL(join(REPO, 'dist', 'adapters', 'b10x', 'index.js')).href)
  for (let index = 0; index < VECTORS; index++) {
    const id = `bench-${String(index).padStart(4, '0')}`
    const dir = join(vectors, id)
    mkdirSync(dir, { recursive: true })
    const record = loopOf(index)
    writeFileSync(join(dir, 'loop.jsonl'), record)
    writeFileSync(join(dir, 'loop.expected.jsonl'), replayB10xLoop(record, SEAM))
    writeFileSync(
      join(dir, 'vector.yaml'),
      [
        `id: ${id}`,
        'tier: c2',
        'kind: replay',
        'adapter: b10x',
        'provenance: synthetic',
        'inputs:',
        '  record: loop.jsonl',
        `  seam: ${JSON.stringify(SEAM)}`,
        'expected:',
        '  events: loop.expected.jsonl',
        '',
      ].join('\n'),
    )
  }
  writeFileSync(
    join(root, 'subject.test.js'),
    [
      `import { describeHarness } from ${DIST('src/contract/describe-harness.js')}`,
      `describeHarness('b10x', { name: 'bench', vectors: ${JSON.stringify(vectors)}, obligations: false })`,
      '',
    ].join('\n'),
  )
  // The same comparisons as plain `it` blocks, written the way the project's own replay example
  // is: the same manifests read with loadVectors, each replayed and compared in its own test.
  writeFileSync(
    join(root, 'baseline.test.js'),
    [
      "import { readFileSync } from 'node:fs'",
      "import { expect, it } from 'vitest'",
      `import { findAdapter } from ${DIST('adapters/registry.js')}`,
      `import { loadVectors, vectorFile } from ${DIST('src/contract/manifest.js')}`,
      `import { replayVector } from ${DIST('src/contract/run-vector.js')}`,
      `import { firstStreamDifference } from ${DIST('src/contract/compare.js')}`,
      "const adapter = findAdapter('b10x')",
      `for (const vector of loadVectors(${JSON.stringify(vectors)})) {`,
      '  it(vector.id, () => {',
      "    const expected = readFileSync(vectorFile(vector, vector.expected.events), 'utf8')",
      '    expect(firstStreamDifference(expected, replayVector(vector, adapter))).toBeUndefined()',
      '  })',
      '}',
      '',
    ].join('\n'),
  )
}

// One whole Vitest run of one file: start-up, collection, the tests, tear-down.
async function child(task) {
  const { createVitest } = await import('vitest/node')
  const started = process.hrtime.bigint()
  // The package is loaded the way an installed one is: externalized, run by Node, not transformed.
  const external = [new RegExp(`^${join(REPO, 'dist').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)]
  const vitest = await createVitest('test', { root, watch: false, config: false, reporters: [{}], include: [`${task}.test.js`], server: { deps: { external } } })
  await vitest.start()
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const modules = vitest.state.getTestModules()
  const tests = modules.flatMap((module) => [...module.children.allTests()])
  const vectorTests = tests.filter((test) => test.name.startsWith('bench-'))
  const failed = tests.filter((test) => test.result().state === 'failed')
  const moduleSeconds = modules.reduce((sum, module) => sum + module.diagnostic().collectDuration + module.diagnostic().duration, 0) / 1000
  await vitest.close()
  if (vectorTests.length !== VECTORS || failed.length > 0) throw new Error(`${task}: ${vectorTests.length} vector tests, ${failed.length} failed`)
  const peakMiB = process.resourceUsage().maxRSS / 1024
  process.stdout.write(JSON.stringify({ count: VECTORS, seconds, moduleSeconds, rate: VECTORS / seconds, peakMiB }))
  process.exitCode = 0
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

export async function run() {
  await generate()
  const baseline = []
  const subject = []
  // Alternating rounds, so a neighbour's load on the shared cores falls on both sides alike; the
  // ratio is taken on each side's fastest round (contention only ever adds time), the median shown beside it.
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(await measureInChild(import.meta.url, 'baseline'))
    subject.push(await measureInChild(import.meta.url, 'subject'))
  }
  const fastest = (runs, key) => Math.min(...runs.map((r) => r[key]))
  const wall = fastest(subject, 'seconds') / fastest(baseline, 'seconds')
  const inModule = fastest(subject, 'moduleSeconds') / fastest(baseline, 'moduleSeconds')
  const ms = (seconds) => `${(seconds * 1000).toFixed(0).padStart(6)} ms`
  const row = (label, runs) =>
    `  ${label} ${ms(fastest(runs, 'seconds'))} whole run (median ${ms(median(runs.map((r) => r.seconds)))}), ${ms(fastest(runs, 'moduleSeconds'))} collect + tests   peak ${Math.max(...runs.map((r) => r.peakMiB)).toFixed(0)} MiB`
  console.log(
    [
      `describeHarness — ${VECTORS.toLocaleString('en-US')} generated replay vectors vs the same comparisons as plain it blocks (fastest of ${ROUNDS})`,
      row('baseline', baseline),
      row('subject ', subject),
      `  ratio    ${wall.toFixed(2)}× the baseline's whole run (target < ${TARGET}×) ${wall < TARGET ? 'MET' : 'MISSED'}`,
      `           ${inModule.toFixed(2)}× its collect + tests time (target < ${TARGET}×) ${inModule < TARGET ? 'MET' : 'MISSED'}`,
    ].join('\n'),
  )
  return wall < TARGET && inModule < TARGET
}

if (process.argv[2] === '--child') await child(process.argv[3])
