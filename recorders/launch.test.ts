import { describe, expect, it } from 'vitest'
import { constructEnvironment, recordLaunch } from './launch.js'

const PRINT_ENV = ['-e', 'process.stdout.write(JSON.stringify(process.env))']

describe('the launch recorder', () => {
  it('runs the program under exactly the constructed environment and records {program, args, env}', async () => {
    const result = await recordLaunch({ program: process.execPath, args: PRINT_ENV, env: { XDG_CONFIG_HOME: '/scratch/config' }, inherit: ['PATH'], from: { PATH: '/usr/bin:/bin', HOME: '/root', SECRET: 'x' } })
    expect(result.record).toEqual({ program: process.execPath, args: PRINT_ENV, env: { PATH: '/usr/bin:/bin', XDG_CONFIG_HOME: '/scratch/config' } })
    expect(result.exitCode).toBe(0)
    const seen = JSON.parse(result.stdout) as Record<string, string>
    // Nothing leaked from this process: no HOME, no test-runner variables.
    expect(Object.keys(seen).filter((name) => !['PATH', 'XDG_CONFIG_HOME'].includes(name) && !name.startsWith('__CF'))).toEqual([])
    expect(seen['XDG_CONFIG_HOME']).toBe('/scratch/config')
  })

  it('returns a failure as data, with the record', async () => {
    const result = await recordLaunch({ program: process.execPath, args: ['-e', 'process.exit(3)'] })
    expect(result).toMatchObject({ exitCode: 3, failed: true, timedOut: false, record: { env: {} } })
    expect(result.shortMessage).toMatch(/^Command failed with exit code 3/)
    const timed = await recordLaunch({ program: process.execPath, args: ['-e', 'setTimeout(() => {}, 10000)'], timeoutMs: 100 })
    expect(timed).toMatchObject({ timedOut: true, failed: true })
  })

  it('does not inherit a declared-but-unset variable, and refuses non-string values', () => {
    expect(constructEnvironment({ inherit: ['NOPE'], from: {} })).toEqual({})
    expect(() => constructEnvironment({ env: { N: 1 as unknown as string } })).toThrow('env.N must be a string')
  })
})
