/**
 * How one row of an adapter's contract checklist is answered: filled by named vectors, or a gap
 * with the words that say why. There is no third answer — a row left silently empty would read as
 * met on an adapter that does not deliver it.
 */
export type Obligation = { readonly filled: readonly string[] } | { readonly gap: string }

/**
 * An adapter's contract obligations: the four rows every adapter answers (upstream's
 * `ContractObligations`, CT-4). A declaration, checked against the vectors a run really produced.
 */
export interface ContractObligations {
  /** The launch face: argv and child environment against a recorded expectation (C1). */
  readonly launch: Obligation
  /** The vendor's own record replayed byte for byte against a committed event stream (C2). */
  readonly recordedWire: Obligation
  /** The raw hook input the seam reads, pinned field by field (C2). */
  readonly hookInput: Obligation
  /** The recorded sample's own version claim against the adapter's pin (C2). */
  readonly versionPair: Obligation
}
