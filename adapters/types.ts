import type { Emission, Hermetic } from '../src/events/types.js'

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
  /** metaharness's own attestation of the launch. */
  hermetic?: Hermetic
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
