import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { splitTextLines } from '../../src/events/lines.js'
import { TranscriptError } from '../../adapters/errors.js'
import { registerFormat, type LineFormat, type TranscriptFormat } from '../../adapters/formats.js'
import { detectCandidates, weighCandidates } from '../../adapters/transcript/detect.js'
import { convertTranscript, detectTranscriptFile } from '../../adapters/transcript/read.js'
import { runCli } from '../helpers/cli.js'
import { filesUnder } from '../helpers/secret-scan.global.js'

/**
 * Detection you can trust: a file two formats claim, or one no format fits with confidence, is
 * refused naming the candidates; `convert`, `inspect` and `check` refuse a file nothing of which
 * was read, whether its format was detected or named. Codes are asserted, not sentences.
 */

const lines = (...records: object[]) => records.map((record) => JSON.stringify(record))

const ROOT = resolve(import.meta.dirname, '..', '..')

/** A line format for the pure detection tests: claims records whose `kind` is `tag`. */
function fakeFormat(name: string, tag: string, confidence: 'certain' | 'likely' = 'certain'): TranscriptFormat {
  const format: LineFormat = {
    kind: 'lines',
    name,
    aliases: [],
    adapter: 'fake',
    summary: name,
    extension: '.jsonl',
    createProjector: () => {
      throw new Error('not read in these tests')
    },
    sniff: (record) => record['kind'] === tag,
    ...(confidence === 'likely' ? { sniffConfidence: () => 'likely' as const } : {}),
  }
  return format
}

describe('detectCandidates', () => {
  const alpha = fakeFormat('alpha', 'a')
  const alsoAlpha = fakeFormat('also-alpha', 'a')
  const weak = fakeFormat('weak', 'w', 'likely')

  it('detects a format one certain sniff claims', () => {
    expect(detectCandidates(lines({ kind: 'a' }), [alpha, weak])).toMatchObject({ outcome: 'detected', confidence: 'certain', format: { name: 'alpha' } })
  })

  it('calls a deciding record two formats claim ambiguous, naming both', () => {
    expect(detectCandidates(['', ...lines({ kind: 'a' })], [alpha, alsoAlpha])).toEqual({ outcome: 'ambiguous', candidates: ['alpha', 'also-alpha'], line: 2 })
  })

  it('wants a weak sniff borne out by another of the first records', () => {
    expect(detectCandidates(lines({ kind: 'w' }), [alpha, weak])).toEqual({ outcome: 'uncertain', candidates: ['weak'], line: 1, why: 'weak_sniff' })
    expect(detectCandidates(lines({ kind: 'w' }, { kind: 'x' }, { kind: 'w' }), [alpha, weak])).toMatchObject({ outcome: 'detected', confidence: 'corroborated', format: { name: 'weak' } })
  })

  it('does not guess from a later record when the first fits nothing', () => {
    expect(detectCandidates(lines({ kind: 'z' }, { kind: 'a' }), [alpha, weak])).toEqual({ outcome: 'uncertain', candidates: ['alpha'], line: 2, why: 'later_record' })
  })

  it('decides from the first record alone only what the whole weighing decides (property, and every corpus file)', () => {
    const formats = [alpha, alsoAlpha, weak, fakeFormat('beta', 'b'), fakeFormat('weak-too', 'w', 'likely')]
    const line = fc.oneof(
      fc.constantFrom('a', 'b', 'w', 'z').map((kind) => JSON.stringify({ kind })),
      fc.constantFrom('', '   ', 'not json', '[1,2]', '{"kind":', '7', '{"kind":"a"', '}'),
    )
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (first) => {
        expect(detectCandidates(first, formats)).toEqual(weighCandidates(first, formats))
      }),
      { numRuns: 2000, seed: 15 },
    )
    // Every real transcript and vector the project keeps, against the registered formats.
    const files = [...filesUnder(join(ROOT, 'test', 'fixtures')), ...filesUnder(join(ROOT, 'vectors'))].filter((file) => /\.jsonl?$/.test(file))
    expect(files.length).toBeGreaterThan(250)
    for (const file of files) {
      const first = splitTextLines(readFileSync(file, 'utf8').slice(0, 65_536))
      expect(detectCandidates(first), file).toEqual(weighCandidates(first))
    }
  })

  it('says none when nothing fits any record', () => {
    expect(detectCandidates(lines({ kind: 'z' }, { kind: 'y' }), [alpha, weak])).toEqual({ outcome: 'none' })
    expect(detectCandidates(['not json at all'], [alpha])).toEqual({ outcome: 'none' })
  })
})

const ROLLOUT = lines(
  { timestamp: '2026-08-01T10:00:00.000Z', type: 'session_meta', payload: { id: 'sess-1', cwd: '/w', cli_version: '0.169.0', originator: 'codex_exec' } },
  { timestamp: '2026-08-01T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] } },
  { timestamp: '2026-08-01T10:00:02.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', call_id: 'c-1', arguments: '{"command":["bash","-lc","npm test"]}' } },
).join('\n')

/** Records of no harness at all. */
const STRANGERS = lines({ hello: 'world', n: 1 }, { hello: 'again', n: 2 }).join('\n')

const SPEC = 'format: trace-spec/1\nid: unit/detection\nexpectations:\n  - id: no-shell\n    expect: {tool.absent: {operations: [shell]}}\n'

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vh-detect-'))
  writeFileSync(join(dir, 'spec.yaml'), SPEC)
  writeFileSync(join(dir, 'rollout.jsonl'), `${ROLLOUT}\n`)
  // The first record is a stranger; only the Codex records after it fit a format.
  writeFileSync(join(dir, 'late.jsonl'), `${JSON.stringify({ hello: 'first' })}\n${ROLLOUT}\n`)
  // A record two registered formats claim (the built-in sniffs are disjoint, so two test formats stand in).
  writeFileSync(join(dir, 'both.jsonl'), `${JSON.stringify({ kind: 'vh-claimed-twice', id: 's' })}\n`)
  writeFileSync(join(dir, 'strangers.jsonl'), `${STRANGERS}\n`)
})

// Registered for this file only (each test file has its own module registry): both claim one record.
registerFormat(fakeFormat('vh-test/first-claimant', 'vh-claimed-twice'))
registerFormat(fakeFormat('vh-test/second-claimant', 'vh-claimed-twice'))

describe('refusing a format nobody can be sure of', () => {
  it('detectTranscriptFile refuses a file two formats claim (VH_AMBIGUOUS_FORMAT) and a late fit (VH_UNCERTAIN_FORMAT)', () => {
    const ambiguous = (() => {
      try {
        return detectTranscriptFile(join(dir, 'both.jsonl'))
      } catch (error) {
        return error
      }
    })()
    expect(ambiguous).toBeInstanceOf(TranscriptError)
    expect((ambiguous as TranscriptError).code).toBe('VH_AMBIGUOUS_FORMAT')
    expect((ambiguous as TranscriptError).line).toBe(1)
    expect(() => detectTranscriptFile(join(dir, 'late.jsonl'))).toThrowError(expect.objectContaining({ code: 'VH_UNCERTAIN_FORMAT', line: 2 }) as Error)
    expect(detectTranscriptFile(join(dir, 'rollout.jsonl'))?.name).toBe('codex/rollout-jsonl')
  })

  it.each([
    ['convert', ['convert', 'both.jsonl'], 'VH_AMBIGUOUS_FORMAT'],
    ['convert', ['convert', 'late.jsonl'], 'VH_UNCERTAIN_FORMAT'],
    ['inspect', ['inspect', '--transcript', 'both.jsonl'], 'VH_AMBIGUOUS_FORMAT'],
    ['inspect', ['inspect', '--transcript', 'late.jsonl'], 'VH_UNCERTAIN_FORMAT'],
    ['check', ['check', '--spec', 'spec.yaml', '--transcript', 'both.jsonl'], 'VH_AMBIGUOUS_FORMAT'],
    ['check', ['check', '--spec', 'spec.yaml', '--transcript', 'late.jsonl'], 'VH_UNCERTAIN_FORMAT'],
  ])('%s %j exits 2 with %s, naming the candidates', async (_verb, argv, code) => {
    const run = await runCli(argv, { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(code)
    expect(run.stderr).toContain(code === 'VH_AMBIGUOUS_FORMAT' ? 'vh-test/second-claimant' : 'codex/rollout-jsonl')
  })

  it('reads stdin as it reads a file: detected from its head, refused as the file is', async () => {
    const file = await runCli(['convert', 'rollout.jsonl'], { cwd: dir })
    const piped = await runCli(['convert', '-'], { cwd: dir, stdin: readFileSync(join(dir, 'rollout.jsonl')) })
    expect(piped).toMatchObject({ code: 0, stdout: file.stdout })
    // A stream longer than the read-ahead is replayed whole after it.
    const long = `${ROLLOUT}\n${`${JSON.stringify({ timestamp: '2026-06-05T04:58:23.498Z', type: 'event_msg', payload: { type: 'agent_message', message: 'x'.repeat(1000) } })}\n`.repeat(200)}`
    writeFileSync(join(dir, 'long.jsonl'), long)
    expect(await runCli(['convert', '-'], { cwd: dir, stdin: long })).toMatchObject({ code: 0, stdout: (await runCli(['convert', 'long.jsonl'], { cwd: dir })).stdout })
    for (const name of ['both.jsonl', 'late.jsonl']) {
      const refused = await runCli(['convert', '-'], { cwd: dir, stdin: readFileSync(join(dir, name)) })
      expect(refused.code).toBe(2)
      expect(refused.stderr.replace('at stdin', 'at <file>')).toBe((await runCli(['convert', name], { cwd: dir })).stderr.replace(/at \S+both\.jsonl|at \S+late\.jsonl/, 'at <file>'))
    }
    expect(await runCli(['convert', '-'], { cwd: dir, stdin: '{"hello":1}\n' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: VH_TRANSCRIPT_UNDETECTED at stdin: no known format fits the first lines; name one with --from \(/) })
  })

  it('--from settles what detection could not', async () => {
    const run = await runCli(['convert', '--from', 'codex/rollout-jsonl', 'late.jsonl'], { cwd: dir })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('"event":"tool.requested"')
  })
})

describe('refusing a file nothing of which was read', () => {
  it.each([
    ['convert --from the wrong format', ['convert', '--from', 'claude-code/stream-json', 'rollout.jsonl']],
    ['convert --from another wrong format', ['convert', '--from', 'pi-session-jsonl', 'rollout.jsonl']],
    ['convert of stdin --from the wrong format', ['convert', '--from', 'claude-code/stream-json', '-']],
    ['inspect --from the wrong format', ['inspect', '--transcript', 'rollout.jsonl', '--from', 'claude-code/stream-json']],
    ['check --from the wrong format', ['check', '--spec', 'spec.yaml', '--transcript', 'rollout.jsonl', '--from', 'claude-code/stream-json']],
    ['check of records no format knows', ['check', '--spec', 'spec.yaml', '--transcript', 'strangers.jsonl']],
    ['inspect of records no format knows', ['inspect', '--transcript', 'strangers.jsonl']],
  ])('%s exits 2 with VH_NOTHING_READ and writes nothing', async (_case, argv) => {
    const run = await runCli(argv, { cwd: dir, stdin: `${ROLLOUT}\n` })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('VH_NOTHING_READ')
    expect(run.stdout).toBe('')
  })

  it('a real Claude session file of summaries and snapshots only is refused for what it holds, not called empty', async () => {
    // Claude Code 2.0.74 leaves such files beside a project's sessions (test/fixtures/wild/claude-session).
    const summaries = join(import.meta.dirname, '../fixtures/wild/claude-session/kfischer-projects-2.0.74/a751b8dd-6b29-4eed-8cb9-64bc9a916a39.jsonl')
    const run = await runCli(['convert', summaries], { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('VH_NOTHING_READ')
    expect(run.stderr).toContain('only records that carry no event of a run (summaries, snapshots)')
    expect(run.stdout).toBe('')
  })

  it('the right format is read, and nothing is refused', async () => {
    expect((await runCli(['convert', 'rollout.jsonl'], { cwd: dir })).code).toBe(0)
    expect((await runCli(['inspect', '--transcript', 'rollout.jsonl'], { cwd: dir })).code).toBe(0)
  })

  it('the library refuses only when asked (requireRead), so upstream-shaped callers keep their report', async () => {
    const chunks: string[] = []
    for await (const chunk of convertTranscript(join(dir, 'rollout.jsonl'), { from: 'claude-code/stream-json' })) chunks.push(chunk)
    expect(chunks.join('')).toContain('"event":"opaque"')
    const refused = async () => {
      for await (const chunk of convertTranscript(join(dir, 'rollout.jsonl'), { from: 'claude-code/stream-json', requireRead: true })) void chunk
    }
    await expect(refused()).rejects.toMatchObject({ code: 'VH_NOTHING_READ' })
  })
})
