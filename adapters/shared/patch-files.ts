const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm
const PATCH_MOVE = /^\*\*\* Move to: (.+)$/gm

/** The files a Codex-style `apply_patch` body names: each file it adds, updates or deletes, and where it moves one. */
export function filesInPatch(patch: string): string[] {
  const files: string[] = []
  for (const pattern of [PATCH_FILE, PATCH_MOVE]) {
    for (const match of patch.matchAll(pattern)) files.push((match[1] as string).trim())
  }
  return files
}
