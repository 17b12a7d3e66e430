import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { readTranscriptAsEvents, readTranscriptEventsSync, type ReadTranscriptOptions } from '../../adapters/transcript/read.js'
import type { Emission } from '../../src/events/types.js'
import { tree } from './tree.js'

/** Converts a transcript written from `lines` (JSON values are stringified) in the named format. */
export async function convertLines(format: string, lines: readonly unknown[], options: ReadTranscriptOptions = {}): Promise<Emission[]> {
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n'
  return convertPath(join(tree({ 'input.jsonl': text }), 'input.jsonl'), { from: format, ...options })
}

function errorKey(error: unknown): string {
  const { code, file, line } = error as { code?: unknown; file?: unknown; line?: unknown }
  return JSON.stringify({ code, file, line })
}

/**
 * Converts a path with the streaming reader, and checks that the whole-file synchronous reader
 * gives the same events (or refuses with the same code, file and line): every adapter test thus
 * covers both.
 */
export async function convertPath(path: string, options: ReadTranscriptOptions = {}): Promise<Emission[]> {
  const events: Emission[] = []
  let failure: unknown
  try {
    for await (const event of readTranscriptAsEvents(path, { run: 't', ...options })) events.push(event)
  } catch (error) {
    failure = error
  }
  let syncEvents: Emission[] | undefined
  let syncFailure: unknown
  try {
    syncEvents = readTranscriptEventsSync(path, { run: 't', ...options })
  } catch (error) {
    syncFailure = error
  }
  if (failure !== undefined) {
    if (syncFailure === undefined || errorKey(syncFailure) !== errorKey(failure)) throw new Error(`the synchronous reader did not refuse as the streaming one did: ${errorKey(failure)}`)
    throw failure
  }
  if (syncFailure !== undefined) throw new Error(`the synchronous reader refused what the streaming one read: ${errorKey(syncFailure)}`)
  if (!isDeepStrictEqual(syncEvents, events)) throw new Error(`the synchronous reader gave other events than the streaming one for ${path}`)
  return events
}

export function names(events: readonly Emission[]): string[] {
  return events.map((event) => event.event)
}
