import { ADP_1_EVIDENCE_KINDS } from '../evidence/declared-kinds.js'
import type { EvidenceKindName } from '../evidence/intake-kinds.js'
import { DEFAULT_VERIFIERS, isNamedVerifier, kindsEstablishedBy } from '../evidence/verifiers.js'
import type { StepMapDiagnostic } from './diagnostics.js'
import { renderPin } from './pin.js'
import type { StepMap } from './types.js'
import type { Workflow } from './workflow.js'

/**
 * Phase one, at load: the map against the workflow it names. The pin must name this workflow at
 * this major version; every state the map names must be one of the workflow's; a **named** verifier
 * must be able to establish the kind it claims (an external tool — `git`, `protocol` — is exempt:
 * the defaults table has no row for it). Accumulates.
 */
export function crossValidate(map: StepMap, workflow: Workflow): StepMapDiagnostic[] {
  const diagnostics: StepMapDiagnostic[] = []
  const prefix = `driver-steps[${map.id}]`
  const pin = renderPin(map.workflow)
  if (map.workflow.id !== workflow.id) {
    diagnostics.push({ code: 'unknown_workflow', location: `${prefix}.workflow`, message: `the map is written against \`${pin}\` and was checked against \`${workflow.id}\`` })
  } else if (map.workflow.major !== workflow.version) {
    diagnostics.push({
      code: 'version_mismatch',
      location: `${prefix}.workflow`,
      message: `the map pins \`${pin}\` and the workflow in the tree is at version ${workflow.version}`,
      hint: 'a major version exists because the change could not be expressed additively, so the map is rewritten against the new state graph rather than migrated',
    })
  }
  const known = Object.keys(workflow.states)
  for (const state of Object.keys(map.states)) {
    if (!(state in workflow.states)) {
      diagnostics.push({ code: 'unknown_state', location: `${prefix}.states.${state}`, message: `\`${state}\` is not a state of workflow \`${workflow.id}\``, hint: `the workflow declares: ${known.join(', ')}` })
    }
  }
  for (const [state, entry] of Object.entries(map.states)) {
    entry.steps.forEach((step, index) => {
      if (step.kind !== 'command' || !step.evidence) return
      const { kind, verifier } = step.evidence
      if (!isNamedVerifier(verifier) || DEFAULT_VERIFIERS[kind].includes(verifier)) return
      const can = kindsEstablishedBy(verifier)
      diagnostics.push({
        code: 'no_verifier_for_evidence',
        location: `${prefix}.states.${state}.steps[${index}].evidence`,
        message: `a \`${verifier}\` does not establish \`${kind}\``,
        hint: `\`${verifier}\` establishes: ${can.length === 0 ? 'nothing this protocol names' : can.join(', ')}`,
      })
    })
  }
  return diagnostics
}

/** The protocol in force at run start: its reference and the evidence kinds it declares. */
export interface ProtocolInForce {
  /** Default: `adp/1`. */
  readonly reference?: string
  /** Default: the `adp/1` list ({@link ADP_1_EVIDENCE_KINDS}). */
  readonly evidenceKinds?: readonly EvidenceKindName[]
}

/**
 * Phase two, at run start: phase one, then every evidence kind a step declares must be declared by
 * the protocol in force — which comes from the task, and which no document loader has seen.
 */
export function checkRun(map: StepMap, workflow: Workflow, protocol: ProtocolInForce = {}): StepMapDiagnostic[] {
  const diagnostics = crossValidate(map, workflow)
  const reference = protocol.reference ?? 'adp/1'
  const declared = protocol.evidenceKinds ?? ADP_1_EVIDENCE_KINDS
  for (const [state, entry] of Object.entries(map.states)) {
    entry.steps.forEach((step, index) => {
      if (step.kind !== 'command' || !step.evidence || declared.includes(step.evidence.kind)) return
      diagnostics.push({
        code: 'undeclared_evidence_kind',
        location: `driver-steps[${map.id}].states.${state}.steps[${index}].evidence.kind`,
        message: `protocol \`${reference}\` does not declare \`${step.evidence.kind}\``,
        hint: `the protocol declares: ${declared.join(', ')}`,
      })
    })
  }
  return diagnostics
}
