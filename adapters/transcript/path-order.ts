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
