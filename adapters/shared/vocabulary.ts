import type { Emission } from '../../src/events/types.js'

/**
 * What one record type of a harness's own format means to its reader. Either it `becomes` events
 * (named, for the docs and the tests), or it is read and `carries no tool call`, with the reason:
 * such a record never makes an absence undecidable, because the vocabulary proves it holds nothing
 * a check could count. Only a record outside the vocabulary is `opaque`.
 */
export type RecordMeaning =
  | { readonly becomes: readonly string[] }
  | { readonly carriesNoToolCall: string }

/**
 * A reader's record vocabulary, as data beside the reader: every record type (and subtype) the
 * format has, from real transcripts and the harness's own source, and the harness versions the
 * reader was written against.
 */
export interface RecordVocabulary {
  /** The transcript format's name (`codex/rollout-jsonl`…). */
  readonly format: string
  /** The program whose versions `writtenAgainst` names (`codex-cli`, `claude-code`…). */
  readonly harness: string
  /** The versions the reader was written against; any other yields a drift warning. Exact versions or `x.y.*` patterns. */
  readonly writtenAgainst: readonly string[]
  /** `type` or `type/subtype` → what it means. A `type/subtype` entry wins over its `type` entry. */
  readonly records: Readonly<Record<string, RecordMeaning>>
}

/** The vocabulary key of a record: `type`, or `type/subtype` when the record has a subtype. */
export function recordKey(type: string | null, subtype: string | null = null): string {
  const base = type ?? '(none)'
  return subtype === null || subtype === '' ? base : `${base}/${subtype}`
}

/** What the vocabulary says of a record, looking up `type/subtype` first, then `type`. */
export function meaningOf(vocabulary: RecordVocabulary, type: string | null, subtype: string | null = null): RecordMeaning | undefined {
  if (subtype !== null && subtype !== '') {
    const exact = vocabulary.records[recordKey(type, subtype)]
    if (exact) return exact
  }
  return vocabulary.records[recordKey(type)]
}

/** Whether the vocabulary lists the record (so it must never come out opaque). */
export function knowsRecord(vocabulary: RecordVocabulary, type: string | null, subtype: string | null = null): boolean {
  return meaningOf(vocabulary, type, subtype) !== undefined
}

/** Whether `version` is one the vocabulary was written against (`0.169.*` matches `0.169.3`). */
export function writtenAgainst(vocabulary: RecordVocabulary, version: string): boolean {
  return vocabulary.writtenAgainst.some((pinned) => (pinned.endsWith('.*') ? version.startsWith(pinned.slice(0, -1)) : pinned === version))
}

/** The warning code of a transcript from a version the reader was not written against. */
export const VERSION_DRIFT = 'version_drift'

/**
 * Watches one transcript for drift: the version it names and the record types the vocabulary did
 * not know. At the end, a transcript from another version yields one `warning` naming the version
 * and those types with their counts (a known version's unknown records are opaque, and say so).
 */
export class DriftWatch {
  private version: string | null = null
  private readonly unknown = new Map<string, number>()

  constructor(private readonly vocabulary: RecordVocabulary) {}

  /** The harness version the transcript names (the first one named wins). */
  sawVersion(version: string | null | undefined): void {
    if (this.version === null && typeof version === 'string' && version.length > 0) this.version = version
  }

  /** A record the vocabulary does not list (it went out opaque). */
  sawUnknown(type: string | null, subtype: string | null = null): void {
    const key = recordKey(type, subtype)
    this.unknown.set(key, (this.unknown.get(key) ?? 0) + 1)
  }

  /** The drift warning, or none when the version is one the reader knows or the transcript names none. */
  finish(): Emission[] {
    const version = this.version
    if (version === null || writtenAgainst(this.vocabulary, version)) return []
    const types = [...this.unknown].map(([key, count]) => `${key} (${count})`)
    const unknown = types.length === 0 ? 'every record type in it was known' : `record types it did not know: ${types.join(', ')}`
    return [
      {
        event: 'warning',
        code: VERSION_DRIFT,
        message: `written by ${this.vocabulary.harness} ${version}; the ${this.vocabulary.format} reader was written against ${this.vocabulary.writtenAgainst.join(', ')}; ${unknown}`,
      },
    ]
  }
}
