import { createServer, type Server } from 'node:net'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { RecorderError } from '../errors.js'
import { readCassette } from './cassette.js'
import { startProvider } from './server.js'

async function refusalOf(run: () => Promise<unknown>): Promise<RecorderError> {
  try {
    const started = await run()
    await (started as { close?: () => Promise<void> }).close?.()
  } catch (error) {
    if (error instanceof RecorderError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('the provider refuses what it cannot listen on, coded', () => {
  it('a port in use is VH_PROVIDER_LISTEN naming the address', async () => {
    const taken: Server = createServer()
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const port = (taken.address() as { port: number }).port
    try {
      const error = await refusalOf(() => startProvider({ port, env: {} }))
      expect(error).toMatchObject({ code: 'VH_PROVIDER_LISTEN', location: `127.0.0.1:${port}` })
      expect(error.message).toContain('already in use')
    } finally {
      await new Promise((done) => taken.close(done))
    }
  })

  it('an address with an octet over 255 is refused before listening', async () => {
    expect(await refusalOf(() => startProvider({ host: '127.999.0.1', env: {} }))).toMatchObject({ code: 'VH_OPTION_INVALID', location: 'host' })
  })

  it('[::1] is listened on as ::1, or refused coded where the machine has no IPv6 loopback', async () => {
    try {
      const provider = await startProvider({ host: '[::1]', env: {} })
      expect(provider.origin).toMatch(/^http:\/\/\[::1\]:\d+$/)
      await provider.close()
    } catch (error) {
      expect(error).toMatchObject({ code: 'VH_PROVIDER_LISTEN', location: expect.stringContaining('[::1]') })
    }
  })

  it('a cassette that is a directory is VH_INPUT_NOT_A_FILE naming it', () => {
    const dir = mkdtempSync(`${tmpdir()}/vh-cassette-dir-`)
    expect(() => readCassette(dir)).toThrow(expect.objectContaining({ code: 'VH_INPUT_NOT_A_FILE', location: dir }))
  })
})
