import { escapeForTerminal } from '../util/terminal-text.js'

/**
 * Why a step map or a workflow is refused. AEP's `ValidationCode` spellings where upstream has one
 * (`unknown_state`, `version_mismatch`, …); the reading codes (`not_yaml`, `duplicate_key`,
 * `unknown_field`, `missing_field`, `invalid_value`) stand where upstream's deserializer would fail.
 */
export type StepMapCode =
  /** The text is not well-formed YAML (or JSON). */
  | 'not_yaml'
  /** A mapping writes one key twice. */
  | 'duplicate_key'
  /** A key the document type does not declare (`deny_unknown_fields`). */
  | 'unknown_field'
  /** A required key is absent. */
  | 'missing_field'
  /** A value of the wrong type or form. */
  | 'invalid_value'
  /** `format` is not `aep.driver-steps/1`. */
  | 'unsupported_format_version'
  /** Something the document must say is missing: the workflow pin, the suite of a minted test result, the llm step a `{transcript}` follows. */
  | 'missing_declaration'
  /** A declaration that declares nothing: no states, an empty prompt or argv, a scope without a final `**`, a glob as context, a breaker that cannot fire, a zero budget. */
  | 'empty_declaration'
  /** A placeholder nothing in a run expands. */
  | 'undeclared_reference'
  /** A kind an exit status cannot establish, declared without `record:`. */
  | 'unsupported_construct'
  /** The map is written against another workflow. */
  | 'unknown_workflow'
  /** The map pins another major version of the workflow. */
  | 'version_mismatch'
  /** A state the workflow does not declare. */
  | 'unknown_state'
  /** A named verifier that cannot establish the kind it claims. */
  | 'no_verifier_for_evidence'
  /** An evidence kind the protocol in force does not declare. */
  | 'undeclared_evidence_kind'

/** One refusal: what, where (`driver-steps[development/default].states.implement.steps[1].evidence.kind`), why. */
export interface StepMapDiagnostic {
  readonly code: StepMapCode
  readonly location: string
  readonly message: string
  /** How to fix it, when there is an obvious remedy. */
  readonly hint?: string
}

/** `CODE at location: message (hint: …)` — one line per refusal. */
export function renderStepMapDiagnostic(diagnostic: StepMapDiagnostic): string {
  const hint = diagnostic.hint ? ` (hint: ${diagnostic.hint})` : ''
  return escapeForTerminal(`${diagnostic.code} at ${diagnostic.location}: ${diagnostic.message}${hint}`)
}

/** A document that was refused, carrying every refusal (thrown only by the `…OrThrow` readers). */
export class StepMapError extends Error {
  readonly code = 'VH_STEPMAP'
  readonly diagnostics: readonly StepMapDiagnostic[]

  constructor(what: string, diagnostics: readonly StepMapDiagnostic[]) {
    super(`${what} — ${diagnostics.length} refusal(s):\n${diagnostics.map(renderStepMapDiagnostic).join('\n')}`)
    this.name = 'StepMapError'
    this.diagnostics = diagnostics
  }
}
