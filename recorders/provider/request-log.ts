import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Redactor } from './redact.js'

/** How a request was answered. */
export type RequestOutcome = 'replayed' | 'recorded' | 'proxied' | 'scripted' | 'miss' | 'refused'

/** One request as the log keeps it: what it asked for, never the credential's value. */
export interface RequestLogEntry {
  readonly seq: number
  readonly scope: string
  readonly wire: string | null
  readonly method: string
  readonly path: string
  readonly model: string | null
  readonly stream: boolean
  readonly tools: readonly string[]
  readonly bodySha256: string
  readonly bodyBytes: number
  readonly credential: { readonly header: string | null; readonly present: boolean; readonly length: number }
  readonly outcome: RequestOutcome
  readonly status: number
  /** For a miss: the nearest recorded interaction and the JSON path where it differs. */
  readonly nearest?: number
  readonly differsAt?: string
}

/** What an entry retains in memory, roughly: its fixed fields plus the strings a client chose (path, model, tool names). */
export function requestEntryBytes(entry: RequestLogEntry): number {
  let bytes = 256 + entry.path.length + (entry.model?.length ?? 0) + (entry.differsAt?.length ?? 0)
  for (const tool of entry.tools) bytes += 16 + tool.length
  return bytes
}

/** The log line: snake_case keys in a fixed order, one JSON object per line. */
export function requestLogLine(entry: RequestLogEntry): string {
  const line: Record<string, unknown> = {
    seq: entry.seq,
    scope: entry.scope,
    wire: entry.wire,
    method: entry.method,
    path: entry.path,
    model: entry.model,
    stream: entry.stream,
    tool_names: entry.tools,
    body_sha256: entry.bodySha256,
    body_bytes: entry.bodyBytes,
    credential_header: entry.credential.header,
    credential_present: entry.credential.present,
    credential_length: entry.credential.length,
    outcome: entry.outcome,
    status: entry.status,
  }
  if (entry.nearest !== undefined) line['nearest'] = entry.nearest
  if (entry.differsAt !== undefined) line['differs_at'] = entry.differsAt
  return `${JSON.stringify(line)}\n`
}

/** Appends each entry to a file as it happens (so a killed server leaves its log), through the redactor. */
export class RequestLogFile {
  constructor(
    private readonly path: string,
    private readonly redactor: Redactor,
  ) {
    mkdirSync(dirname(path), { recursive: true })
  }

  append(entry: RequestLogEntry): void {
    appendFileSync(this.path, this.redactor.text(requestLogLine(entry)))
  }
}
