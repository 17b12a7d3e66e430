import type { HarnessAdapter } from '../adapter.js'
import { lineProjectorOf } from '../shared/line-projector.js'
import { CLAUDE_ADAPTER_ID, CLAUDE_PROGRAM, claudeCapabilities } from './declaration.js'
import { declaredLaunchOf } from '../launch/plan.js'
import { claudeLaunch } from './launch.js'
import { ClaudeProjector } from './read.js'

/** The Claude Code adapter: reads stream-json (its projector) and session files, and launches `claude -p`. */
export const claudeAdapter: HarnessAdapter = {
  id: CLAUDE_ADAPTER_ID,
  program: CLAUDE_PROGRAM,
  bannerPrefix: '',
  capabilities: claudeCapabilities,
  createProjector: (seam) => lineProjectorOf(new ClaudeProjector(seam, 'stream-json')),
  declaration: claudeLaunch,
  // C1 vectors check the very argv/env `launchHarness` spawns with.
  launch: declaredLaunchOf(claudeLaunch),
}
