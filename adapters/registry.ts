import type { HarnessAdapter } from './adapter.js'
import { b10xAdapter } from './b10x/adapter.js'
import { claudeAdapter } from './claude/adapter.js'
import { codexAdapter } from './codex/adapter.js'
import { geminiAdapter } from './gemini/adapter.js'
import { scriptedAdapter } from './scripted/adapter.js'

const registry = new Map<string, HarnessAdapter>()

/** Adds an adapter under its id; a second adapter under the same id is refused. */
export function registerAdapter(adapter: HarnessAdapter): void {
  if (registry.has(adapter.id)) throw new Error(`an adapter named ${JSON.stringify(adapter.id)} is already registered`)
  registry.set(adapter.id, adapter)
}

/** The adapter registered under `id`, or undefined. */
export function findAdapter(id: string): HarnessAdapter | undefined {
  return registry.get(id)
}

/** Every registered adapter id, sorted. */
export function adapterIds(): string[] {
  return [...registry.keys()].sort()
}

registerAdapter(b10xAdapter as HarnessAdapter)
registerAdapter(claudeAdapter)
registerAdapter(codexAdapter)
registerAdapter(geminiAdapter as HarnessAdapter)
// A test double for the control seam, registered so its C3 vectors run like any adapter's.
registerAdapter(scriptedAdapter as HarnessAdapter)
