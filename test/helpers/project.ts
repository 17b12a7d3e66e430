import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { readTranscriptAsEvents, type ReadTranscriptOptions } from '../../adapters/transcript/read.js'
import type { Emission } from '../../src/events/types.js'

/** Writes files (path → text) under a new temporary directory and returns it. */
export function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'vh-tree-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

/** Converts a transcript written from `lines` (JSON values are stringified) in the named format. */
export async function convertLines(format: string, lines: readonly unknown[], options: ReadTranscriptOptions = {}): Promise<Emission[]> {
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n'
  return convertPath(join(tree({ 'input.jsonl': text }), 'input.jsonl'), { from: format, ...options })
}

export async function convertPath(path: string, options: ReadTranscriptOptions = {}): Promise<Emission[]> {
  const events: Emission[] = []
  for await (const event of readTranscriptAsEvents(path, { run: 't', ...options })) events.push(event)
  return events
}

export function names(events: readonly Emission[]): string[] {
  return events.map((event) => event.event)
}
