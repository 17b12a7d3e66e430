export { scriptedAdapter } from './adapter.js'
export { ScriptedProjector } from './read.js'
export { scriptedControlSeam } from './control.js'
export { planScriptedLaunch, scriptedVendorPath, scriptedChildPath } from './launch.js'
export type { ScriptedLaunchInputs } from './launch.js'
export { SCRIPTED_OBLIGATIONS } from './contract.js'
export {
  SCRIPTED_ADAPTER_ID,
  SCRIPTED_PROGRAM,
  SCRIPTED_PINNED_VERSIONS,
  SCRIPTED_RENDERING,
  SCRIPTED_VENDOR_TIMEOUT_MS,
  scriptedCapabilities,
} from './declaration.js'
