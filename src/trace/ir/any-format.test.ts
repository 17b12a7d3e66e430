import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertTranscriptSync, planTranscript } from '../../../adapters/transcript/read.js'
import { NO_SHELL_SPEC, REQUIRED_SPEC } from '../../../test/helpers/wild.js'
import { EVENT_FORMAT } from '../../events/format.js'
import { checkTranscriptDetailed, checkTranscriptFile, checkTranscriptFileSync, checkTranscriptText } from '../check/check.js'
import { readSpecFile } from '../spec/read.js'
import { CONVERSION_RUN, convertedAdapterRef, openTranscriptPath, openTranscriptText } from './any-format.js'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const WILD = join(ROOT, 'test', 'fixtures', 'wild')
const REFERENCE_SPEC = join(ROOT, '..', 'shared', 'reference', 'aep', 'eval', 'development-honest', 'expectations.trace.yaml')

function wildFiles(): string[] {
  return readdirSync(WILD)
    .filter((folder) => statSync(join(WILD, folder)).isDirectory())
    .flatMap((folder) => readdirSync(join(WILD, folder)).filter((name) => name !== 'MANIFEST.md').map((name) => join(WILD, folder, name)))
    .sort()
}

const specs = () => [NO_SHELL_SPEC, REQUIRED_SPEC, ...(existsSync(REFERENCE_SPEC) ? [readSpecFile(REFERENCE_SPEC)] : [])]

// The pipeline hands the adapter's events to the checker as objects. The report must be the one the
// old route gave — the conversion printed by the event writer and parsed again by the trace reader —
// digest, verdicts, notes and cited events alike.
describe('a converted transcript is checked from its events, as if its printed conversion were read', () => {
  for (const file of wildFiles()) {
    const { format, files } = planTranscript(file)
    // The two wires the trace reader reads itself are not converted: nothing changed for them.
    if (format.name === EVENT_FORMAT || format.name === 'claude-code/stream-json') continue
    it(file.slice(WILD.length + 1), async () => {
      // A directory's digest is of its files' bytes, concatenated in reading order.
      const hash = createHash('sha256')
      for (const part of files) hash.update(readFileSync(part))
      const original = hash.digest('hex')
      const printed = convertTranscriptSync(file, { from: format.name, run: CONVERSION_RUN })
      for (const spec of specs()) {
        const viaBytes = checkTranscriptText(spec, printed, { source: file, format: EVENT_FORMAT, origin: { adapter: convertedAdapterRef(format), digest: () => original } })
        const streamed = await checkTranscriptFile(spec, file)
        expect(streamed.transcript_digest).toBe(original)
        expect(streamed).toEqual(viaBytes)
        expect(checkTranscriptFileSync(spec, file)).toEqual(viaBytes)
      }
    })
  }
})

// A fleet worker reads blocking: the same chunks a stream gives, so the same report, and the same
// refusal of a file that is not there.
describe('a transcript file read blocking reads as it does streamed', () => {
  it('over a native stream of several megabytes, chunk after chunk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-blocking-'))
    const path = join(dir, 'run.jsonl')
    const line = (seq: number, body: string) => `{"format":"${EVENT_FORMAT}","seq":${seq},"run":"R",${body}}\n`
    let text = line(1, '"event":"session.started","adapter":"x"')
    for (let seq = 2; text.length < 3.5 * 1024 * 1024; seq++) text += line(seq, `"event":"tool.requested","call_id":"c${seq}","name":"Bash","input":{"command":"echo ${'x'.repeat(seq % 300)}"}`)
    writeFileSync(path, text)
    for (const spec of specs()) {
      const streamed = await checkTranscriptDetailed(spec, openTranscriptPath(path).bytes, { requireRead: true })
      const blocking = await checkTranscriptDetailed(spec, openTranscriptPath(path, undefined, path, 'blocking').bytes, { requireRead: true })
      expect(blocking).toEqual(streamed)
    }
    const missing = join(dir, 'missing.jsonl')
    const refusal = async (reading: 'streamed' | 'blocking') =>
      checkTranscriptDetailed(NO_SHELL_SPEC, openTranscriptPath(missing, undefined, missing, reading).bytes).then(
        () => 'read',
        (error: NodeJS.ErrnoException) => error.code,
      )
    expect(await refusal('blocking')).toBe('ENOENT')
    expect(await refusal('streamed')).toBe('ENOENT')
  })
})

// A Claude session file of summaries alone is a real file (a project folder keeps one per
// resumed conversation) with no record of a run in it; nor has an empty one.
describe('a conversion that gives no event is refused as the format it was read in', () => {
  const folder = join(WILD, 'claude-session', 'kfischer-projects-2.0.74')
  const summariesOnly = join(folder, '3f6ddfee-788c-48a5-8f7a-d43377b51472.jsonl')
  const empty = join(folder, '0f13eeba-e6ed-42ea-ad8c-d8db37e1304e.jsonl')
  const refusal = /^\S+ is not a transcript this build can read as claude-session-jsonl — 1 refusal\(s\):\nTRACE-ADAPT-002 at transcript: the transcript holds no events at all: nothing in it is a record of a run as claude-session-jsonl reads one \(no record, or only summaries and snapshots\): there is nothing to judge$/

  it('detected or named, streamed, blocking or from memory', async () => {
    expect(readFileSync(summariesOnly, 'utf8').split('\n').filter(Boolean).every((line) => (JSON.parse(line) as { type: string }).type === 'summary')).toBe(true)
    for (const [file, from] of [[summariesOnly, undefined], [summariesOnly, 'claude-session-jsonl'], [empty, 'claude-session-jsonl']] as const) {
      await expect(checkTranscriptFile(NO_SHELL_SPEC, file, from === undefined ? {} : { from })).rejects.toThrow(refusal)
      expect(() => checkTranscriptFileSync(NO_SHELL_SPEC, file, from === undefined ? {} : { from })).toThrow(refusal)
      const opened = openTranscriptText(readFileSync(file), from, file)
      expect(() => checkTranscriptText(NO_SHELL_SPEC, opened.bytes, { source: file, ...opened.read })).toThrow(refusal)
    }
  })

  it('while a native stream of no events is still refused as upstream words it', () => {
    expect(() => checkTranscriptText(NO_SHELL_SPEC, '', { source: 'empty.jsonl', format: EVENT_FORMAT })).toThrow(/as metaharness\.event\/1 — 1 refusal\(s\):\nTRACE-ADAPT-002 at transcript: the event stream holds no events at all: there is nothing to judge$/)
  })
})
