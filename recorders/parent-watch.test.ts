import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ancestorPids, watchAncestors } from './parent-watch.js'

describe('watchAncestors', () => {
  it('lists this process’s ancestors nearest first, starting at its parent', () => {
    const chain = ancestorPids()
    expect(chain[0]).toBe(process.ppid)
    expect(chain).not.toContain(1)
    expect(new Set(chain).size).toBe(chain.length)
  })

  it('calls back once with the pid of an ancestor that died', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    const pid = child.pid as number
    const gone: number[] = []
    const stop = watchAncestors((dead) => gone.push(dead), 20, [process.ppid, pid])
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(gone).toEqual([])
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    await new Promise((resolve) => setTimeout(resolve, 150))
    stop()
    expect(gone).toEqual([pid])
  })
})
