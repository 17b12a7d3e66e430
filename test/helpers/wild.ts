import { readdirSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findFormat } from '../../adapters/formats.js'
import { knowsRecord } from '../../adapters/shared/vocabulary.js'
import { detectTranscriptFile, planTranscript, readTranscriptAsEvents } from '../../adapters/transcript/read.js'
import type { Emission } from '../../src/events/types.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import type { TraceReport } from '../../src/trace/report-types.js'
import { readSpec } from '../../src/trace/spec/read.js'

/**
 * The corpus of real transcripts (`test/fixtures/wild/<folder>/`, named in its MANIFEST.md),
 * walked one format at a time. Every file is judged against facts counted from its raw bytes by
 * the test's own counter, never by the reader under test.
 */

export const WILD = resolve(import.meta.dirname, '..', 'fixtures', 'wild')

/** What a raw count of one transcript finds, by plain JSON reading independent of the adapter. */
export interface RawCount {
  /** Every tool call the file records, once each. */
  readonly calls: number
  /** The call ids of the calls of a shell-like tool (a command line or argv run by a shell). */
  readonly shellCallIds: readonly string[]
  /** Shell calls whose recorded answer names a nonzero exit code, where the count reads one. */
  readonly failedShellCallIds?: readonly string[]
  /** How many calls the record says the harness refused (an approval denied, a hook's block), where the count reads them. */
  readonly refusedCalls?: number
}

export interface WildFormat {
  /** The folder under `test/fixtures/wild/`. */
  readonly folder: string
  /** The format `detect` must pick for every entry (file or directory) of the folder. */
  readonly format: string
  /** Counts the raw file (or directory) without the reader. */
  count(path: string): RawCount
  /** Entries whose format is another one (e.g. a JSON-array variant named in the manifest): name → format. */
  readonly formatOf?: Readonly<Record<string, string>>
}

/** The corpus entries of a folder: its files and directories, but for the manifest. */
export function wildEntries(folder: string): string[] {
  const dir = resolve(WILD, folder)
  return readdirSync(dir)
    .filter((name) => name !== 'MANIFEST.md' && !name.startsWith('.'))
    .sort()
    .map((name) => resolve(dir, name))
}

const NEVER = 'vh-wild-never-run-7f3a'

/** "No shell": gaps on every run that made a shell call. */
export const NO_SHELL_SPEC = readSpec(`format: trace-spec/1
id: wild-no-shell
expectations:
  - id: no-shell
    expect:
      tool.absent:
        operations: [shell]
`)

/** A required action nobody did: a shell call running a command no run contains. */
export const REQUIRED_SPEC = readSpec(`format: trace-spec/1
id: wild-required
expectations:
  - id: the-suite-ran
    expect:
      tool.called:
        operations: [shell]
        args: {command: {contains: "${NEVER}"}}
        count: {at_least: 1}
`)

function denialsSpec(count: number) {
  return readSpec(`format: trace-spec/1\nid: wild-denials\nexpectations:\n  - id: the-refusals\n    expect: {permission.denied: {count: {exactly: ${count}}}}\n`)
}

async function eventsOf(path: string, format: string): Promise<Emission[]> {
  const events: Emission[] = []
  for await (const event of readTranscriptAsEvents(path, { from: format, run: 'wild' })) events.push(event)
  return events
}

function rowOf(report: TraceReport) {
  const row = report.expectations[0]
  if (!row) throw new Error('the spec has one row')
  return row
}

/**
 * One `describe` per format folder, one `it` per corpus entry: detected without `--from`; as many
 * `tool.requested` as the raw count; every shell-like call classified `shell`; no opaque event of
 * a record type the vocabulary lists; a shell call that exited nonzero failed; the calls it refused are its denials; "no shell" gaps where a shell call is; a required action
 * that did not happen is `gap`, or `unknown` only for want of closure.
 */
export function describeWildFormat(corpus: WildFormat): void {
  describe(`wild ${corpus.folder} (${corpus.format})`, () => {
    const entries = wildEntries(corpus.folder)
    it('holds real transcripts', () => expect(entries.length).toBeGreaterThan(0))
    for (const path of entries) {
      const name = path.slice(path.lastIndexOf('/') + 1)
      const format = corpus.formatOf?.[name] ?? corpus.format
      it(name, async () => {
        expect(detectedFormat(path), `${name} is detected`).toBe(format)
        const raw = corpus.count(path)
        const events = await eventsOf(path, format)
        const calls = events.filter((event): event is Extract<Emission, { event: 'tool.requested' }> => event.event === 'tool.requested')
        expect(calls.length, 'tool.requested events against the raw count').toBe(raw.calls)
        for (const id of raw.shellCallIds) {
          const call = calls.find((candidate) => candidate.call_id === id)
          expect(call, `shell call ${id} is read`).toBeDefined()
          expect(call?.operations, `shell call ${id} (${call?.name}) is classified`).toContain('shell')
        }
        for (const id of raw.failedShellCallIds ?? []) {
          const result = events.find((event) => event.event === 'tool.result' && event.call_id === id)
          expect(result, `shell call ${id}, which exited nonzero, is read as failed`).toMatchObject({ is_error: true })
        }
        if (raw.refusedCalls !== undefined) {
          const denials = rowOf(await checkTranscriptFile(denialsSpec(raw.refusedCalls), path))
          if (denials.verdict !== 'ok') expect(denials.outcome, `${raw.refusedCalls} refused call(s) are the run's denials, or no terminal record says`).toMatchObject({ outcome: 'undecidable', reason: 'no_run_outcome' })
        }
        const vocabulary = findFormat(format)?.vocabulary
        expect(vocabulary, `${format} has a record vocabulary`).toBeDefined()
        const listed = events.filter((event) => event.event === 'opaque' && vocabulary !== undefined && knowsRecord(vocabulary, event.vendor_type ?? null, event.vendor_subtype ?? null))
        expect(listed, 'opaque events of record types the vocabulary lists').toEqual([])

        const noShell = rowOf(await checkTranscriptFile(NO_SHELL_SPEC, path))
        if (raw.shellCallIds.length > 0) expect(noShell.verdict, 'no shell, on a run with a shell call').toBe('gap')
        else expect(noShell.verdict, 'no shell, on a run without one').not.toBe('gap')

        const required = rowOf(await checkTranscriptFile(REQUIRED_SPEC, path))
        if (required.verdict !== 'gap') {
          expect(required.verdict).toBe('unknown')
          expect(required.outcome, 'an undecided required action is undecided for want of closure').toMatchObject({ reason: 'stream_not_closed' })
        }
      })
    }
  })
}

/** The format detection picks for an entry: a file's own, or a directory's as the reader plans it. */
function detectedFormat(path: string): string | undefined {
  return isDirectory(path) ? planTranscript(path).format.name : detectTranscriptFile(path)?.name
}

/** Whether a path is a directory (a Claude projects folder, an opencode storage tree). */
export function isDirectory(path: string): boolean {
  return statSync(path).isDirectory()
}
