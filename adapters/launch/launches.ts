import { b10xLaunch } from '../b10x/harness-launch.js'
import { claudeLaunch } from '../claude/launch.js'
import { codexLaunch } from '../codex/launch.js'
import { geminiLaunch } from '../gemini/launch.js'
import { nativeLaunch } from '../native/launch.js'
import { opencodeLaunch } from '../opencode/launch.js'
import { piLaunch } from '../pi/launch.js'
import { qwenLaunch } from '../qwen/launch.js'
import type { LaunchDeclaration } from './declaration.js'

const launches = new Map<string, LaunchDeclaration>([claudeLaunch, codexLaunch, piLaunch, opencodeLaunch, b10xLaunch, nativeLaunch, geminiLaunch, qwenLaunch].map((launch) => [launch.adapter, launch]))

/** The launch declared for an adapter id, or undefined. */
export function findLaunch(adapter: string): LaunchDeclaration | undefined {
  return launches.get(adapter)
}

/** Every launch declaration, sorted by adapter id (the harness matrix's rows). */
export function allLaunches(): LaunchDeclaration[] {
  return [...launches.values()].sort((a, b) => (a.adapter < b.adapter ? -1 : a.adapter > b.adapter ? 1 : 0))
}

/** Every adapter id with a launch declaration, sorted. */
export function launchIds(): string[] {
  return [...launches.keys()].sort()
}
