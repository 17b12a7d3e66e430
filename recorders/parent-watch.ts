import { spawnSync } from 'node:child_process'
import { isProcessAlive, procStatFields } from './provider/process-alive.js'

/** The parent of `pid`, from `/proc` on Linux, else from `ps`; undefined when it cannot be told. */
function parentOf(pid: number): number | undefined {
  const fields = procStatFields(pid)
  if (fields !== undefined) {
    const parent = Number(fields[1])
    return Number.isInteger(parent) ? parent : undefined
  }
  const ps = spawnSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 })
  const parent = Number(ps.stdout?.trim())
  return ps.status === 0 && Number.isInteger(parent) && parent > 0 ? parent : undefined
}

/**
 * This process's ancestors, nearest first, up to (not including) init. `npx` runs a bin as
 * `npm exec` → `sh -c` → node; when npm is killed outright its `sh` lingers, so the parent alone
 * says nothing: every ancestor is watched.
 */
export function ancestorPids(start: number = process.ppid, limit = 32): number[] {
  const chain: number[] = []
  let pid: number | undefined = start
  while (pid !== undefined && pid > 1 && chain.length < limit && !chain.includes(pid)) {
    chain.push(pid)
    pid = parentOf(pid)
  }
  return chain
}

/**
 * Calls `onGone` once, with the pid, when this process is re-parented or any ancestor it started
 * under has died; polls every `intervalMs`. The timer never keeps the process alive. Returns the
 * function that stops watching.
 */
export function watchAncestors(onGone: (pid: number) => void, intervalMs = 200, ancestors: readonly number[] = ancestorPids()): () => void {
  const parent = process.ppid
  const timer = setInterval(() => {
    const gone = process.ppid !== parent ? parent : ancestors.find((pid) => !isProcessAlive(pid))
    if (gone === undefined) return
    clearInterval(timer)
    onGone(gone)
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
