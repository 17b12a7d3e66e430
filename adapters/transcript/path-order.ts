import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { compareCodePoints } from '../../src/events/json.js'

/**
 * Python's `Path` order, which Reef's readers sort by: component by component, each compared by
 * code point — so `sid/subagents/a.jsonl` sorts before `sid.jsonl` (`sid` < `sid.jsonl`).
 */
export function comparePythonPaths(a: string, b: string): number {
  const left = a.split(sep)
  const right = b.split(sep)
  const length = Math.min(left.length, right.length)
  for (let i = 0; i < length; i++) {
    const order = compareCodePoints(left[i] as string, right[i] as string)
    if (order !== 0) return order
  }
  return left.length - right.length
}

/** Every file under `root` whose name ends with one of `extensions`, recursively, in Python `Path` order. */
export function listTranscriptFiles(root: string, extensions: readonly string[]): string[] {
  const found: string[] = []
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension))) found.push(path)
    }
  }
  walk(root)
  return found.sort((a, b) => comparePythonPaths(relative(root, a), relative(root, b)))
}

/**
 * A Claude Code projects directory's files with each session's subagent transcripts
 * (`<sid>/subagents/*.jsonl`) moved to just after the session's own `<sid>.jsonl`: a subagent is
 * spawned by its parent, so its calls are read after the call that spawned it. Python `Path`
 * order would read them first (`sid` < `sid.jsonl`). A subagent whose parent file is absent stays
 * where it was.
 */
export function subagentsAfterParents(root: string, files: readonly string[]): string[] {
  const parentOf = (file: string): string | undefined => {
    const parts = relative(root, file).split(sep)
    const at = parts.lastIndexOf('subagents')
    if (at < 1) return undefined
    return join(root, ...parts.slice(0, at - 1), `${parts[at - 1] as string}.jsonl`)
  }
  const present = new Set(files)
  const children = new Map<string, string[]>()
  for (const file of files) {
    const parent = parentOf(file)
    if (parent !== undefined && present.has(parent)) children.set(parent, [...(children.get(parent) ?? []), file])
  }
  const moved = new Set([...children.values()].flat())
  const out: string[] = []
  for (const file of files) {
    if (moved.has(file)) continue
    out.push(file, ...(children.get(file) ?? []))
  }
  return out
}
