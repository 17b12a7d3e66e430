// Replaying a 1,000,000-line b10x loop record, beside a baseline that only JSON.parses and
// JSON.stringifies each line, both streamed from the same file in the same run.
import { createWriteStream, existsSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createReadStream } from 'node:fs'
import { fastestOfRounds, forEachLine, measureInChild, report, timeChildTask } from './lib.js'

const ROUNDS = Number(process.env['BENCH_REPLAY_ROUNDS'] ?? 3)

const LINES = Number(process.env['BENCH_B10X_LINES'] ?? 1_000_000)
const file = join(tmpdir(), `vitest-harness-bench-b10x-${LINES}.jsonl`)

// One turn of a realistic loop; repeated until the record has LINES lines.
function turnLines(turn) {
  const call = `call_${turn}`
  return [
    `{"kind":"turn-started","turn":${turn}}`,
    `{"kind":"tool-arguments-delta","call_id":"${call}","delta":"{\\"path\\":\\"src/file-${turn}.rs\\"}"}`,
    `{"kind":"usage","model":"b10x-emulated","input_tokens":${1000 + turn},"output_tokens":${turn % 97},"cached_input_tokens":${turn % 13}}`,
    `{"kind":"cost","model":"b10x-emulated","micro_usd":${turn % 1000}}`,
    `{"kind":"tool-requested","call_id":"${call}","name":"file_read","arguments":{"path":"src/file-${turn}.rs","limit":200},"operation":"file.read","subjects":["file:src/file-${turn}.rs"]}`,
    `{"kind":"tool-completed","call_id":"${call}","failed":${turn % 17 === 0}}`,
    `{"kind":"text-delta","text":"Reading src/file-${turn}.rs for the next change"}`,
    `{"kind":"text-delta","text":" and keeping the tests green."}`,
    `{"kind":"warning","code":"unpriced-model","message":"no rate for this turn"}`,
    `{"kind":"reasoning-delta","text":"think ${turn}"}`,
  ]
}

async function ensureRecord() {
  if (existsSync(file) && statSync(file).size > 0) return
  const out = createWriteStream(file)
  out.write('{"kind":"started","model":"b10x-emulated","published_tools":["file_read","search"],"operations":["file.read","search"],"withheld":[],"skills":[],"agents":[],"profiles":[],"context":[],"toolchains":[],"credential_source":"api-key:environment"}\n')
  let written = 1
  for (let turn = 1; written < LINES - 1; turn++) {
    let chunk = ''
    for (const line of turnLines(turn)) {
      if (written >= LINES - 1) break
      chunk += `${line}\n`
      written += 1
    }
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve))
  }
  out.end('{"kind":"finished","stop":{"kind":"completed"},"turns":1}\n')
  await new Promise((resolve) => out.once('finish', resolve))
}

async function child(task) {
  if (task === 'baseline') {
    let bytes = 0
    await timeChildTask(() => forEachLine(file, (line) => (bytes += JSON.stringify(JSON.parse(line)).length)))
    return
  }
  const { replayB10xStream } = await import('../../dist/adapters/b10x/index.js')
  await timeChildTask(async () => {
    let chars = 0
    const seam = { run: 'bench', harnessVersion: '0.12.1', model: 'b10x-emulated', cwd: '/w' }
    for await (const chunk of replayB10xStream(createReadStream(file), seam)) chars += chunk.length
    if (chars === 0) throw new Error('the replay wrote nothing')
    return LINES
  })
}

export async function run() {
  await ensureRecord()
  // One round each swung from 0.68 to 1.02 on this machine: alternating rounds, fastest kept.
  const { baseline, subject } = await fastestOfRounds(
    ROUNDS,
    () => measureInChild(import.meta.url, 'baseline'),
    () => measureInChild(import.meta.url, 'subject'),
  )
  return report({
    title: `b10x replay — ${LINES.toLocaleString('en-US')} loop lines (${(statSync(file).size / 1048576).toFixed(0)} MiB), streamed, fastest of ${ROUNDS}`,
    unit: 'lines',
    subject,
    baseline,
    target: 0.9,
    memoryTargetMiB: 150,
  })
}

if (process.argv[2] === '--child') await child(process.argv[3])
