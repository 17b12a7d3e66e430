// Shared by the benchmarks: run a measured task in a child process (so peak memory is that
// task's alone), and print results as ratios against a baseline measured in the same run.
import { spawn, spawnSync } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Runs `node <file> --child <task> ...args` and returns what the child printed as JSON, plus its
 * peak resident memory (from the child's own getrusage).
 */
export function measureInChild(file, task, args = [], nodeArgs = [], { oneCpu } = {}) {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, ...nodeArgs, fileURLToPath(file), '--child', task, ...args]
    // `oneCpu`: the child may run on that CPU only (taskset), helper threads and all.
    const [program, ...argv] = oneCpu === undefined ? command : ['taskset', '--cpu-list', String(oneCpu), ...command]
    const child = spawn(program, argv, {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${task} exited ${code}`))
      resolve(JSON.parse(out))
    })
  })
}

/**
 * The first CPU this process may run on, where `taskset` can pin a child to it (Linux); undefined
 * elsewhere. A single Node thread is not one core: V8 collects garbage and compiles on helper
 * threads, which an idle second core runs for free.
 */
export function firstCpu() {
  if (process.platform !== 'linux') return undefined
  const shown = spawnSync('taskset', ['--cpu-list', '--pid', String(process.pid)], { encoding: 'utf8' })
  const list = shown.status === 0 ? /:\s*([0-9]+)/.exec(shown.stdout) : null
  return list ? Number(list[1]) : undefined
}

/** What a child reports: elapsed time, its count, and its own peak RSS in MiB. */
export async function timeChildTask(run) {
  const started = process.hrtime.bigint()
  const count = await run()
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const peakMiB = process.resourceUsage().maxRSS / 1024
  process.stdout.write(JSON.stringify({ count, seconds, rate: count / seconds, peakMiB }))
}

/**
 * Measures a baseline and a subject in alternating rounds and keeps each side's fastest (by
 * `rate`): a burst of other work on the machine then slows one round of each rather than deciding
 * the ratio. The subject's peak memory is the highest of its rounds.
 */
export async function fastestOfRounds(rounds, measureBaseline, measureSubject) {
  let baseline
  let subject
  for (let round = 0; round < rounds; round++) {
    const b = await measureBaseline()
    const s = await measureSubject()
    if (!baseline || b.rate > baseline.rate) baseline = b
    if (!subject || s.rate > subject.rate) subject = { ...s, peakMiB: Math.max(s.peakMiB ?? 0, subject?.peakMiB ?? 0) }
  }
  return { baseline, subject }
}

/** The fastest (by `rate`) of `rounds` measurements of one thing, for a figure shown beside a ratio. */
export async function fastestOf(rounds, measure) {
  let fastest
  for (let round = 0; round < rounds; round++) {
    const one = await measure()
    if (!fastest || one.rate > fastest.rate) fastest = one
  }
  return fastest
}

/** Reads a file line by line without holding it, calling `onLine` with each line's text. */
export async function forEachLine(path, onLine) {
  let rest = ''
  let lines = 0
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 })) {
    const text = rest + chunk
    let start = 0
    for (;;) {
      const newline = text.indexOf('\n', start)
      if (newline === -1) break
      onLine(text.slice(start, newline))
      lines += 1
      start = newline + 1
    }
    rest = text.slice(start)
  }
  if (rest.length > 0) {
    onLine(rest)
    lines += 1
  }
  return lines
}

export function formatRate(rate) {
  return `${Math.round(rate).toLocaleString('en-US')}/s`
}

/** One result row: the subject beside its baseline, the ratio, and whether the target holds. */
export function report({ title, unit, subject, baseline, target, memoryTargetMiB }) {
  const ratio = subject.rate / baseline.rate
  const rows = [
    `${title}`,
    `  baseline ${formatRate(baseline.rate).padStart(16)} ${unit}   peak ${baseline.peakMiB.toFixed(0)} MiB`,
    `  subject  ${formatRate(subject.rate).padStart(16)} ${unit}   peak ${subject.peakMiB.toFixed(0)} MiB`,
    `  ratio    ${ratio.toFixed(2)} of baseline (target ≥ ${target}) ${ratio >= target ? 'MET' : 'MISSED'}`,
  ]
  if (memoryTargetMiB !== undefined) {
    rows.push(`  memory   ${subject.peakMiB.toFixed(0)} MiB peak (target < ${memoryTargetMiB} MiB) ${subject.peakMiB < memoryTargetMiB ? 'MET' : 'MISSED'}`)
  }
  console.log(rows.join('\n'))
  return ratio >= target && (memoryTargetMiB === undefined || subject.peakMiB < memoryTargetMiB)
}
