import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { RecorderError } from '../errors.js'
import { isProcessAlive } from './process-alive.js'

/** Who holds a cassette: the lock file's content. */
export interface LockHolder {
  readonly pid: number
  readonly id: string
}

/** A held cassette lock; `release()` removes the file if it is still this holder's. */
export interface CassetteLock {
  /** `<cassette>.lock` */
  readonly path: string
  readonly holder: LockHolder
  release(): void
}

/** The lock file beside a cassette. */
export function lockPathFor(cassette: string): string {
  return `${cassette}.lock`
}

// Lock path → id of every lock this process holds: a lock naming this pid with another id was left
// by an earlier process that had the same pid (containers reuse pids), so it is stale.
const held = new Map<string, string>()
let exitHookInstalled = false

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const [path, id] of held) removeIfHeldBy(path, id)
  })
}

function readHolder(path: string): LockHolder | 'gone' | 'unreadable' {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone'
    throw error
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>
    if (typeof value.pid === 'number' && typeof value.id === 'string') return { pid: value.pid, id: value.id }
  } catch {
    // fall through
  }
  return 'unreadable'
}

function removeIfHeldBy(path: string, id: string): void {
  const holder = readHolder(path)
  if (typeof holder === 'object' && holder.id === id) {
    try {
      unlinkSync(path)
    } catch {
      // already gone
    }
  }
}

function isLive(path: string, holder: LockHolder): boolean {
  if (holder.pid === process.pid) return held.get(path) === holder.id
  return isProcessAlive(holder.pid)
}

/**
 * Creates `path` holding `content`, or reports that it exists. The content is written to a private
 * file first and hard-linked into place, so a reader never sees a lock that is created but still
 * empty; where hard links are not supported it falls back to an exclusive (`wx`) create.
 */
function createExclusive(path: string, content: string): boolean {
  const staging = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  writeFileSync(staging, content, { flag: 'wx' })
  try {
    linkSync(staging, path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error
    try {
      writeFileSync(path, content, { flag: 'wx' })
      return true
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw fallback
    }
  } finally {
    unlinkSync(staging)
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * Removes a stale lock, once: under a short-lived `.takeover` guard, and only if the lock still
 * names the same dead holder, so two processes taking over at once cannot remove each other's new lock.
 */
function takeOver(path: string, stale: LockHolder): void {
  const guard = `${path}.takeover`
  const guardId = randomBytes(8).toString('hex')
  if (!createExclusive(guard, `${JSON.stringify({ pid: process.pid, id: guardId })}\n`)) {
    const other = readHolder(guard)
    // A guard whose process died mid-takeover is removed; a live one finishes soon.
    if (typeof other === 'object' && !isProcessAlive(other.pid)) removeIfHeldBy(guard, other.id)
    else pause(5)
    return
  }
  try {
    const now = readHolder(path)
    if (typeof now === 'object' && now.id === stale.id && now.pid === stale.pid) unlinkSync(path)
  } finally {
    removeIfHeldBy(guard, guardId)
  }
}

function lockedError(cassette: string, path: string, holder: LockHolder | 'unreadable'): RecorderError {
  const who = holder === 'unreadable' ? 'a recorder whose lock cannot be read' : `process ${holder.pid}`
  return new RecorderError(
    'VH_CASSETTE_LOCKED',
    `the cassette ${cassette} is being recorded by ${who} (lock ${path}); a second recorder would lose interactions. Wait for it to finish, give this recording its own cassette, or delete the lock if no such process runs.`,
    { location: cassette },
  )
}

/**
 * Takes the cassette's lock (`<cassette>.lock`, holding this pid and a random id), in-process and
 * across processes. A lock whose process is gone is taken over; a live one is `VH_CASSETTE_LOCKED`,
 * naming the cassette and the holder's pid.
 */
export function lockCassette(cassette: string): CassetteLock {
  const path = lockPathFor(cassette)
  mkdirSync(dirname(path), { recursive: true })
  const holder: LockHolder = { pid: process.pid, id: randomBytes(16).toString('hex') }
  const content = `${JSON.stringify(holder)}\n`
  let last: LockHolder | 'unreadable' = 'unreadable'
  for (let attempt = 0; attempt < 20; attempt++) {
    if (createExclusive(path, content)) {
      held.set(path, holder.id)
      installExitHook()
      let released = false
      return {
        path,
        holder,
        release() {
          if (released) return
          released = true
          if (held.get(path) === holder.id) held.delete(path)
          removeIfHeldBy(path, holder.id)
        },
      }
    }
    const current = readHolder(path)
    if (current === 'gone') continue
    last = current
    if (current === 'unreadable' || isLive(path, current)) break
    takeOver(path, current)
  }
  throw lockedError(cassette, path, last)
}
