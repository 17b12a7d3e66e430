import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputError, MAX_INPUT_ENV, readBoundedFile } from './read-input.js'

const dir = mkdtempSync(join(tmpdir(), 'vh-read-input-'))

function refusal(run: () => unknown): InputError {
  try {
    run()
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('readBoundedFile', () => {
  it('reads a regular file within its limit', () => {
    const file = join(dir, 'small.yaml')
    writeFileSync(file, 'a: 1\n')
    expect(readBoundedFile(file, { maxBytes: 100, what: 'spec' }).toString()).toBe('a: 1\n')
  })

  it('refuses a missing file, a directory and an over-limit file with a code naming the file', () => {
    expect(refusal(() => readBoundedFile(join(dir, 'absent'), { maxBytes: 100, what: 'spec', shownAs: 'absent' }))).toMatchObject({ code: 'VH_INPUT_MISSING', file: 'absent' })
    expect(refusal(() => readBoundedFile(dir, { maxBytes: 100, what: 'spec' }))).toMatchObject({ code: 'VH_INPUT_NOT_A_FILE', file: dir })
    const big = join(dir, 'big.yaml')
    writeFileSync(big, 'x'.repeat(101))
    const error = refusal(() => readBoundedFile(big, { maxBytes: 100, what: 'spec', env: {} }))
    expect(error).toMatchObject({ code: 'VH_INPUT_TOO_LARGE', file: big })
    expect(error.message).toContain(MAX_INPUT_ENV)
  })

  it('raises the limit through the environment variable it names', () => {
    const big = join(dir, 'raised.yaml')
    writeFileSync(big, 'x'.repeat(2 * 1024 * 1024))
    expect(() => readBoundedFile(big, { maxBytes: 1024, what: 'spec', env: {} })).toThrow(InputError)
    expect(readBoundedFile(big, { maxBytes: 1024, what: 'spec', env: { [MAX_INPUT_ENV]: '3' } }).length).toBe(2 * 1024 * 1024)
  })

  it('refuses /dev/zero at its first NUL byte: no document read here is binary', () => {
    const error = refusal(() => readBoundedFile('/dev/zero', { maxBytes: 256 * 1024 * 1024, what: 'spec', env: {} }))
    expect(error).toMatchObject({ code: 'VH_INPUT_UNREADABLE', file: '/dev/zero' })
    expect(error.message).toContain('NUL byte at offset 0')
  })

  it('refuses a text stream that never ends once the limit is read, not at its (absent) end', () => {
    const fifo = join(dir, 'endless')
    execFileSync('mkfifo', [fifo])
    const writer = spawn('sh', ['-c', `exec yes > "${fifo}"`], { stdio: 'ignore' })
    try {
      expect(refusal(() => readBoundedFile(fifo, { maxBytes: 1024 * 1024, what: 'spec', env: {} }))).toMatchObject({ code: 'VH_INPUT_TOO_LARGE', file: fifo })
    } finally {
      writer.kill('SIGKILL')
    }
  })

  it('reads a named pipe from where it stands (no ESPIPE)', async () => {
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    const writer = spawn('sh', ['-c', `printf 'a: 1\\nb: 2\\n' > "${fifo}"`])
    const text = readBoundedFile(fifo, { maxBytes: 100, what: 'spec' }).toString()
    await new Promise((done) => writer.on('close', done))
    expect(text).toBe('a: 1\nb: 2\n')
  })
})
