// Runs hostile-input cells in-process, one after another, and sends each result to the parent over
// IPC: `node --expose-gc --import tsx test/helpers/hostile-cells-child.ts ROOT SLOT\tKIND…`. Its own
// process, so the parent can measure memory and kill what never ends. A cell that overruns its time
// is reported and ends the child (its work would go on in the background and skew the next cells).
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { cli } from '../../src/cli/main.js'
import { hostileKinds, hostileSlots, vectorManifestIn, type CellResult } from './hostile-inputs.js'

// The hard stop for a cell that never ends; its work is bounded by the CPU time the test asserts.
const CELL_MS = 30_000
const [root, ...cells] = process.argv.slice(2) as [string, ...string[]]

/** Resets the kernel's peak-RSS mark, so each cell's peak is its own (Linux: clear_refs 5). */
function resetPeak(): void {
  ;(globalThis as { gc?: () => void }).gc?.()
  try {
    writeFileSync('/proc/self/clear_refs', '5')
  } catch {
    // Without it the peak is the process's so far: a larger bound, never a smaller one.
  }
}

function peakMb(): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
  return Math.round((hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS) / 1024)
}

function residentMb(): number {
  return Math.round(process.memoryUsage.rss() / 1048576)
}

async function runCell(slot: string, kind: string): Promise<CellResult> {
  const cellRoot = mkdtempSync(join(root, 'cell-'))
  const input = hostileKinds(cellRoot)[kind]!()
  const argv = hostileSlots(cellRoot)[slot]!(input.path)
  const location = slot === 'contract --vectors' ? vectorManifestIn(argv[3]!) : input.path
  const writer = input.writer?.()
  let stdout = ''
  let stderr = ''
  resetPeak()
  const restMb = residentMb()
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<null>((done) => (timer = setTimeout(() => done(null), CELL_MS)))
  try {
    const code = await Promise.race([
      cli(argv, {
        stdout: { write: (chunk: string) => ((stdout += chunk), true) },
        stderr: { write: (chunk: string) => ((stderr += chunk), true) },
        stdin: Readable.from([]),
        cwd: process.cwd(),
        env: input.env ?? {},
      }).catch((error: unknown) => {
        stderr += `UNCAUGHT ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`
        return -1
      }),
      timeout,
    ])
    const ms = Math.round(performance.now() - started)
    const cpu = process.cpuUsage(cpuBefore)
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000)
    return { slot, kind, argv, location, code, stdout: stdout.slice(0, 4000), stderr: stderr.slice(0, 4000), ms, cpuMs, maxRssMb: peakMb(), restMb }
  } finally {
    clearTimeout(timer)
    writer?.kill('SIGKILL')
  }
}

for (const entry of cells) {
  const [slot, kind] = entry.split('\t') as [string, string]
  const result = await runCell(slot, kind)
  await new Promise<void>((done) => process.send!(result, () => done()))
  if (result.code === null) process.exit(3)
}
process.exit(0)
