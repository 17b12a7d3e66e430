import { accessSync, constants, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The first executable file named `program` on `path`, in the path's own order, or undefined.
 * Hand-walked so it uses exactly the PATH string a launch constructs, not this process's.
 */
export function resolveOnPath(program: string, path: string): string | undefined {
  for (const directory of path.split(':')) {
    if (!directory) continue
    const candidate = join(directory, program)
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here, or not executable: the child's exec would skip it too.
    }
  }
  return undefined
}

/** Like {@link resolveOnPath}, except that a program already given as a path is returned as it stands: the caller named a file. */
export function resolveProgram(program: string, path: string): string | undefined {
  return program.includes('/') ? program : resolveOnPath(program, path)
}
