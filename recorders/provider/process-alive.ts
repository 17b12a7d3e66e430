import { readFileSync } from 'node:fs'

/**
 * Whether a process with this id runs (as far as this user can tell): a lock or temp file it left
 * is not stale while it does, and an ancestor that runs still holds its child. A process that has
 * exited but not been reaped (a zombie) runs no more, though signals still reach its id: an init
 * that reaps slowly (this VM's took 1.5 s) or never (a container without one) would otherwise keep
 * it "alive".
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !hasExited(pid)
}

/** Whether Linux says the process is a zombie or dead (`Z`, `X`); false where `/proc` cannot tell. */
function hasExited(pid: number): boolean {
  const state = procStatFields(pid)?.[0]
  return state === 'Z' || state === 'X'
}

/**
 * The fields of `/proc/<pid>/stat` after the parenthesised command name (which may itself hold
 * `)` and spaces): state, parent pid, …; undefined where there is no `/proc` or no such process.
 */
export function procStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}
