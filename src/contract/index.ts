export { loadVectors, loadVectorManifest, vectorFile, vectorManifestSchema, commandTriggerSchema, VectorManifestError } from './manifest.js'
export type { LoadedVector, VectorManifest, VectorTier, Provenance, SeamInput, CommandTrigger } from './manifest.js'
export {
  runVector,
  checkVector,
  runLaunchVector,
  runReplayVector,
  runVersionPairVector,
  checkLaunchVector,
  checkLaunchRefusalVector,
  checkReplayVector,
  checkHookInputVector,
  checkVersionPairVector,
  replayVector,
} from './run-vector.js'
export type { VectorCheck, RunVectorOptions } from './run-vector.js'
export { runControlVector } from './run-control-vector.js'
export { renderOutcome, isWarning } from './outcome.js'
export type { VectorOutcome } from './outcome.js'
export { firstStreamDifference, launchRecordsEqual } from './compare.js'
export { seamFromInput } from './seam.js'
export { resolvePointer } from './json-pointer.js'
export { ControlSession, CONTROL_WARNINGS } from './control/session.js'
export type { ControlSessionOptions, SessionEvent, SessionEnd } from './control/session.js'
export { ManualClock, SystemClock } from './control/clock.js'
export type { ControlClock } from './control/clock.js'
export { driverDeadlineMs, deadlineReason, DEADLINE_MARGIN_MS } from './control/deadline.js'
export { gateCommand } from './control/gate.js'
export { traceNote } from './control/trace-note.js'
export { CHECKLIST_ROWS, checkRow, unmetObligations, providerProblem } from './checklist.js'
export type { ChecklistRow, ChecklistVerdict, NamedVector } from './checklist.js'
export { contractResultOf, providerOf, ContractResultError } from './contract-result.js'
export { checkCapabilities, renderCapabilities, renderRendering, orderedCapabilities, OPERATIONS } from './capabilities.js'
export type { CapabilityProblem, CapabilityProblemCode } from './capabilities.js'
export { runContract, selectContractVectors, ContractRefusal } from './run-contract.js'
export type { ContractRun, RunContractOptions } from './run-contract.js'
export { diagnoseAdapter, diagnoseHarness, launchableHarnessIds, renderDoctorReport, isHealthy, versionToken, DoctorRefusal } from './doctor.js'
export { resolveOnPath } from '../../adapters/shared/resolve-program.js'
export type { DoctorOptions, DoctorReport } from './doctor.js'
