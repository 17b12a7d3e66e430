import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { planTranscript, readTranscriptAsEvents } from '../../adapters/transcript/read.js'
import { openTranscriptPath } from '../../src/trace/ir/any-format.js'
import { runCli } from '../helpers/cli.js'

/**
 * A compressed transcript (a user's own dsh logs are `.jsonl.zstd`; CI artifacts are often gzip)
 * is refused by its first bytes, on every path in, rather than read as text and refused line by
 * line as "not UTF-8" in whichever format the guess fell on.
 */

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures')
const ORIGINAL = join(FIXTURES, 'wild', 'dsh', 'bash-tool-turn--session.jsonl')
const SPEC = 'format: trace-spec/1\nid: unit/compressed\nexpectations:\n  - id: no-shell\n    expect: {tool.absent: {operations: [shell]}}\n'
const COMPRESSED = [
  ['gzip', 'session.jsonl.gz'],
  ['zstd', 'bash-tool-turn--session.jsonl.zst'],
  ['xz', 'bash-tool-turn--session.jsonl.xz'],
  ['bzip2', 'bash-tool-turn--session.jsonl.bz2'],
  ['zip', 'bash-tool-turn--session.jsonl.zip'],
] as const

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-compressed-'))
  writeFileSync(join(dir, 'spec.yaml'), SPEC)
  writeFileSync(join(dir, 'session.jsonl.gz'), gzipSync(readFileSync(ORIGINAL)))
  for (const [, name] of COMPRESSED.slice(1)) copyFileSync(join(FIXTURES, 'compressed', name), join(dir, name))
  copyFileSync(ORIGINAL, join(dir, 'session.jsonl'))
})

describe.each(COMPRESSED)('a %s-compressed transcript (%s)', (compression, name) => {
  it.each([
    ['convert FILE', ['convert', name]],
    ['convert --from FILE', ['convert', '--from', 'deepseek-session-jsonl', name]],
    ['convert of stdin', ['convert', '-']],
    ['convert --from of stdin', ['convert', '--from', 'deepseek-session-jsonl', '-']],
    ['inspect FILE', ['inspect', name]],
    ['inspect of stdin', ['inspect', '-']],
    ['check FILE', ['check', '--spec', 'spec.yaml', '--transcript', name]],
    ['check --from FILE (an adapter format)', ['check', '--spec', 'spec.yaml', '--from', 'deepseek-session-jsonl', '--transcript', name]],
    ['check --from FILE (a format upstream reads)', ['check', '--spec', 'spec.yaml', '--from', 'metaharness.event/1', '--transcript', name]],
    ['check of stdin', ['check', '--spec', 'spec.yaml', '--transcript', '-']],
    ['check --from of stdin', ['check', '--spec', 'spec.yaml', '--from', 'deepseek-session-jsonl', '--transcript', '-']],
  ])('%s exits 2 with VH_TRANSCRIPT_COMPRESSED naming the compression, and writes nothing', async (_case, argv) => {
    const run = await runCli(argv, { cwd: dir, stdin: readFileSync(join(dir, name)) })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(new RegExp(`^error: VH_TRANSCRIPT_COMPRESSED at \\S+: its first bytes show a ${compression}-compressed file`))
    expect(run.stderr).not.toContain('UTF-8')
  })

  it('the library refuses it when planned, read or opened for a check', async () => {
    const path = join(dir, name)
    expect(() => planTranscript(path)).toThrowError(expect.objectContaining({ code: 'VH_TRANSCRIPT_COMPRESSED', file: path }) as Error)
    const read = async () => {
      for await (const event of readTranscriptAsEvents(path, { from: 'deepseek-session-jsonl' })) void event
    }
    await expect(read()).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_COMPRESSED' })
    expect(() => openTranscriptPath(path)).toThrowError(expect.objectContaining({ code: 'VH_TRANSCRIPT_COMPRESSED' }) as Error)
  })
})

describe('what is not compressed is read as before', () => {
  it('the original log, and the same log from stdin, are judged', async () => {
    const file = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'session.jsonl'], { cwd: dir })
    expect(file.code).toBe(1)
    expect(file.stdout).toContain('gap')
    expect(await runCli(['check', '--spec', 'spec.yaml', '--transcript', '-'], { cwd: dir, stdin: readFileSync(ORIGINAL) })).toMatchObject({ code: 1 })
  })

  it('text that only starts like a magic number (BZh and no block size) is not called compressed', async () => {
    writeFileSync(join(dir, 'bzh.jsonl'), 'BZhello\n')
    const run = await runCli(['convert', 'bzh.jsonl'], { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('VH_TRANSCRIPT_UNDETECTED')
  })

  it('a stream shorter than any magic number is read, not refused for its length', async () => {
    expect(await runCli(['convert', '--from', 'deepseek-session-jsonl', '-'], { cwd: dir, stdin: '{}\n' })).toMatchObject({ code: 2, stderr: expect.stringContaining('VH_NOTHING_READ') })
  })
})
