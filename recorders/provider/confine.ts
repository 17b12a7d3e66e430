import { lstatSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { RecorderError } from '../errors.js'

function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/**
 * Where a path really lands: the realpath of its deepest existing ancestor, with the missing rest
 * appended. A symlink on the way is followed; a dangling one is refused (a write would follow it
 * to wherever it points).
 */
function landingPath(path: string, location: string): string {
  const missing: string[] = []
  let current = path
  for (;;) {
    let exists = true
    try {
      lstatSync(current)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
      exists = false
    }
    if (exists) {
      try {
        return join(realpathSync(current), ...missing)
      } catch (error) {
        throw new RecorderError('VH_PATH_OUTSIDE_ROOT', `${current} is a symlink that points nowhere; a write through it could land anywhere`, { location, cause: error })
      }
    }
    const parent = dirname(current)
    if (parent === current) return path
    missing.unshift(basename(current))
    current = parent
  }
}

/**
 * A path a scope names, confined to `root`: resolved against it, refused when it escapes (by
 * `..`, by being absolute elsewhere, or through a symlink). Returns the absolute path to use.
 */
export function confineToRoot(root: string, requested: string, location: string): string {
  if (requested.includes('\0')) throw new RecorderError('VH_PATH_OUTSIDE_ROOT', `${location} holds a NUL byte`, { location })
  const absoluteRoot = resolve(root)
  const target = resolve(absoluteRoot, requested)
  if (!isWithin(absoluteRoot, target)) {
    throw new RecorderError('VH_PATH_OUTSIDE_ROOT', `${location} ${JSON.stringify(requested)} is outside the cassette root ${absoluteRoot}; scopes read and write only under it`, { location })
  }
  const realRoot = landingPath(absoluteRoot, location)
  const realTarget = landingPath(target, location)
  if (!isWithin(realRoot, realTarget)) {
    throw new RecorderError('VH_PATH_OUTSIDE_ROOT', `${location} ${JSON.stringify(requested)} resolves through a symlink to ${realTarget}, outside the cassette root ${absoluteRoot}`, { location })
  }
  return target
}
