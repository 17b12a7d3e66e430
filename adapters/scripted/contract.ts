import type { ContractObligations } from '../obligations.js'

/** What the scripted test double's contract owes: every row filled by its own vectors. */
export const SCRIPTED_OBLIGATIONS: ContractObligations = {
  launch: { filled: ['c1-scripted-launch', 'c1-observe-with-a-frame-is-refused'] },
  recordedWire: { filled: ['scripted-record'] },
  hookInput: { filled: ['scripted-hook-input'] },
  versionPair: { filled: ['scripted-version-pair'] },
}
