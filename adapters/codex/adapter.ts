import type { HarnessAdapter } from '../adapter.js'
import { lineProjectorOf } from '../shared/line-projector.js'
import { CODEX_ADAPTER_ID, CODEX_PROGRAM, codexCapabilities } from './declaration.js'
import { declaredLaunchOf } from '../launch/plan.js'
import { codexLaunch } from './launch.js'
import { CodexRolloutProjector } from './rollout.js'

/** The Codex adapter: reads rollouts (its projector) and `exec --json`, and launches `codex exec`. */
export const codexAdapter: HarnessAdapter = {
  id: CODEX_ADAPTER_ID,
  program: CODEX_PROGRAM,
  bannerPrefix: 'codex-cli ',
  capabilities: codexCapabilities,
  createProjector: (seam) => lineProjectorOf(new CodexRolloutProjector(seam)),
  declaration: codexLaunch,
  // C1 vectors check the very argv/env `launchHarness` spawns with.
  launch: declaredLaunchOf(codexLaunch),
}
