import type { ContractObligations } from '../obligations.js'

/** What the b10x adapter's contract owes, in the shape every adapter answers (upstream's CT-4 declaration). */
export const B10X_OBLIGATIONS: ContractObligations = {
  launch: { filled: ['c1-observe-launch'] },
  recordedWire: {
    filled: [
      'golden-loop-record',
      'provider-emulated-unpublished-tool',
      'provider-emulated-approval-denied',
      'provider-emulated-budget-stop',
      'provider-emulated-cancellation',
    ],
  },
  hookInput: {
    gap:
      "not applicable: b10x is an observe-only direct-provider adapter and has no hook or decision seam; " +
      "inventing hook input would contradict the adapter's boundary",
  },
  versionPair: { filled: ['golden-version-pair'] },
}

/**
 * Every flag `planB10xLaunch` can send, and how the binary lists the ones it declares: `doctor`
 * checks the first against the second, so a binary that renamed a flag is caught before a launch
 * dies on argument parsing.
 */
export const B10X_FLAG_SURFACE = {
  helpArgs: ['run', '--help'],
  flags: [
    '--base-url', '--model', '--workspace', '--execution-path', '--json', '--no-session', '--approve-up-to',
    '--hooks', '--api-key-file', '--api-key-env', '--oauth-token-file', '--oauth-token-env', '--oauth-token-pointer',
    '--wire', '--toolchain', '--driver', '--write-scope', '--scope-announce', '--context', '--prices', '--substrate',
    '--substrate-embedded', '--cgroup-root', '--allow-program', '--max-turns', '--input',
  ],
} as const

/**
 * The seven vectors upstream's `metaharness conformance b10x --contract` runs (its `vectors.rs`):
 * one launch, the golden loop, four enforcement records and the version pair. Its line is
 * `checked: 7`; the other b10x vectors in the package are this project's own.
 */
export const B10X_UPSTREAM_VECTORS: readonly string[] = [
  'c1-observe-launch',
  'golden-loop-record',
  'provider-emulated-unpublished-tool',
  'provider-emulated-approval-denied',
  'provider-emulated-budget-stop',
  'provider-emulated-cancellation',
  'golden-version-pair',
]
