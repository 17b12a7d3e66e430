import type { CloseReason, Emission, Hermetic } from '../src/events/types.js'

/** What an adapter is: a harness adapter drives a vendor binary; a direct-provider adapter holds the conversation itself. */
export type AdapterClass = 'harness' | 'direct_provider'

/** Whether a control tier is proven by a vector, claimed without one, or not there. */
export type TierStatus = 'delivered' | 'unverified' | 'absent'

export type Tier = 'registration' | 'call' | 'turn' | 'kill'

/** How a command is answered: honoured, or refused with a code. */
export type CommandSupport = 'honoured' | { refused: string }

/** Upstream's `Capabilities` document (notes/metaharness.md §3). */
export interface Capabilities {
  adapter: { id: string; class: AdapterClass }
  versions_pinned: string[]
  tiers: Record<Tier, TierStatus>
  commands: Record<string, CommandSupport>
  decision_modes: Record<'ask' | 'frame' | 'observe', TierStatus>
  /** Neutral operation → the vendor tool that performs it, or `null` where none does. */
  rendering: Record<string, string | null>
}

/** A launch, as the C1 vectors record it: the program, its argv, and a constructed environment. */
export interface LaunchPlan {
  program: string
  args: string[]
  env: Record<string, string>
}

/** The facts a replay needs that the vendor's record does not carry (upstream's seam parameters). */
export interface SeamOptions {
  /** The embedder-chosen run id written on every line. */
  run: string
  harnessVersion?: string | null
  model?: string | null
  cwd?: string | null
  transcriptPath?: string | null
  transcriptDigest?: string | null
  transcriptBytes?: number | null
  /**
   * metaharness's own attestation of the launch. A partial one is completed, not written short:
   * absent `mode`/`decisions` take the reader's default, absent rows (`imposed`, `unavailable`,
   * `ambient_inputs`, `installed_plugins`) are written as `[]`.
   * Default: `{ mode: 'off', decisions: 'observe' }` with empty rows.
   */
  hermetic?: Hermetic
  /**
   * `upstream` reproduces metaharness's own projection byte for byte where upstream defines one
   * (Claude stream-json, Codex rollout): no derived operations, usage as upstream reports it.
   * `enriched` adds operations and subjects, normalises usage to per-request figures and merges
   * split messages. Readers with no upstream projection behave the same under both.
   * Default: `upstream` through `HarnessAdapter.createProjector`, `enriched` through `convert`.
   */
  projection?: 'upstream' | 'enriched'
}

/**
 * Turns a vendor's record, one line at a time, into events. Lines are numbered by the caller
 * from 1, counting blank lines, so `opaque.source_line` points into the file as written.
 */
export interface LineProjector {
  pushLine(line: string, lineNumber: number): Emission[]
  /** A line whose bytes are not UTF-8: carried across as opaque, never dropped. */
  pushUndecodable(bytes: Uint8Array, lineNumber: number): Emission[]
  /** Called once after the last line. Never invents a terminal record. */
  finish(): Emission[]
}

/**
 * A projector fed records the caller already parsed: the reading machinery parses each line once
 * and decides what an unreadable line is (opaque, or an error under Reef's directory rules).
 */
export interface RecordProjector {
  /** One JSON object record; `raw` is the line as written (for digests). */
  pushRecord(record: Record<string, unknown>, raw: string, lineNumber: number): Emission[]
  /** A line that is not a JSON object, or whose bytes are not UTF-8: carried as opaque. */
  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[]
  /** Called once after the last line. Never invents a terminal record the format does not imply. */
  finish(): Emission[]
  /** How the stream ended when the format itself proves it did (`stream.closed`), else null. */
  closure(): CloseReason | null
}
