import { existsSync, readdirSync, rmdirSync } from 'node:fs'

// Codex 0.169's sandbox keeps `.git` read-only in every writable root, `/tmp` among them, and
// creates an empty `/tmp/.git` to mount over when there is none. Left behind, it makes `/tmp` look
// like a repository to the next harness: Claude Code then names its memory folder after `/tmp`.
const LEFT_BY_SANDBOX = '/tmp/.git'

/** Removes an empty `/tmp/.git` the suite's harnesses created, and nothing that was there before. */
export default function setup(): () => void {
  const before = existsSync(LEFT_BY_SANDBOX)
  return () => {
    if (before || !existsSync(LEFT_BY_SANDBOX)) return
    if (readdirSync(LEFT_BY_SANDBOX).length === 0) rmdirSync(LEFT_BY_SANDBOX)
  }
}
