import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isProcessAlive } from './process-alive.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('isProcessAlive', () => {
  it('holds for this process and a running child, not for a child that exited or a bad id', async () => {
    expect(isProcessAlive(process.pid)).toBe(true)
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    expect(isProcessAlive(child.pid as number)).toBe(true)
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    await sleep(50)
    expect(isProcessAlive(child.pid as number)).toBe(false)
    expect(isProcessAlive(0)).toBe(false)
    expect(isProcessAlive(-1)).toBe(false)
  })

  // A zombie needs a parent that never reaps it: `sleep`, exec'd by the shell that started it.
  it.runIf(existsSync('/proc/self/stat'))('does not hold for a zombie, which signals still reach', async () => {
    const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 10'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))))
      await sleep(300)
      expect(() => process.kill(zombie, 0)).not.toThrow()
      expect(isProcessAlive(zombie)).toBe(false)
      expect(isProcessAlive(parent.pid as number)).toBe(true)
    } finally {
      parent.kill('SIGKILL')
    }
  })
})
