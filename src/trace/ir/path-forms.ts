import { joinFolder } from '../../../adapters/shared/shell-folder.js'

// A Windows path: a drive letter (`C:\Users\…`, `C:/Users/…`), or a relative one written with
// backslashes only (`src\a.ts`). Its `\` are read as `/`, the separator every selector is written with.
const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/
const WINDOWS_RELATIVE = /^[^/]*\\[^/]*$/

/** The path with a Windows path's `\` read as `/`; any other path as it is. */
function slashed(path: string): string {
  return WINDOWS_DRIVE.test(path) || WINDOWS_RELATIVE.test(path) ? path.replace(/\\/g, '/') : path
}

/** Whether the path is absolute: from `/`, or from a drive (`C:/`). */
function isAbsolute(path: string): boolean {
  return path.startsWith('/') || WINDOWS_DRIVE.test(path)
}

/**
 * The folder a session says it opened in (`session.started.cwd`, stream-json's `init.cwd`), as
 * the absolute path it must be to place other paths: `/` for separators, without a trailing `/`;
 * null for none or a relative one.
 */
export function sessionFolder(cwd: string | null | undefined): string | null {
  if (typeof cwd !== 'string') return null
  const folder = slashed(cwd)
  if (!isAbsolute(folder)) return null
  const trimmed = folder.replace(/\/+$/, '')
  return trimmed === '' || /^[A-Za-z]:$/.test(trimmed) ? null : trimmed
}

// A `.` or `..` segment, or a doubled `/`: what resolving a path changes.
const UNRESOLVED = /(?:^|\/)\.\.?(?:\/|$)|\/\//

/**
 * Whether a path may have another spelling (`otherPathForms`): asked first, as cheaply as it can
 * be, because most paths have none where the session named no folder.
 */
export function mayHaveOtherForms(path: string, cwd: string | null): boolean {
  if (UNRESOLVED.test(path) || path.includes('\\')) return true
  if (cwd === null || path.startsWith('~')) return false
  return !isAbsolute(path) || isInside(path, cwd)
}

function isInside(path: string, folder: string): boolean {
  return path.startsWith(folder) && path.charCodeAt(folder.length) === 0x2f
}

/** An absolute path resolved: `.` and `..` segments and doubled `/` gone, a drive kept. */
function resolvedAbsolute(path: string): string {
  const drive = WINDOWS_DRIVE.test(path) ? path.slice(0, 2) : ''
  return `${drive}${joinFolder('/', path.slice(drive.length + 1))}`
}

/**
 * The other spellings of one recorded path, for a selector written in another: harnesses record
 * the same file as `/w/src/a.ts` (Claude Code's, Gemini CLI's absolute paths), `src/a.ts`,
 * `./src/a.ts`, or on Windows `C:\w\src\a.ts`, and a spec names it one way (`file:src/*`). A
 * Windows path is also read with `/` for `\`. Given the session's folder, an absolute path inside
 * it is also read relative to it, and a relative one also as absolute; any path is also read with
 * `.`, `..` and doubled `/` resolved. `folder` is where the call's relative paths start (`''`:
 * where the run started). A relative path from anywhere else (a kept shell's `cd`, a `workdir`)
 * gets no other spelling: which file it names is left to the words no reader can place. Empty
 * where the path has no other spelling.
 */
export function otherPathForms(recorded: string, cwd: string | null, folder: string): string[] {
  const forms: string[] = []
  const add = (form: string | null): void => {
    if (form !== null && form.length > 0 && form !== recorded && !forms.includes(form)) forms.push(form)
  }
  const path = slashed(recorded)
  add(path)
  // Most paths are clean: they are their own resolved form, and joining them is one concatenation.
  const clean = !UNRESOLVED.test(path)
  if (isAbsolute(path)) {
    const absolute = clean ? path : resolvedAbsolute(path)
    add(absolute)
    if (cwd !== null && isInside(absolute, cwd)) add(absolute.slice(cwd.length + 1))
  } else if (!path.startsWith('~') && folder === '') {
    const relative = clean ? path : joinFolder('', path)
    add(relative)
    if (cwd === null) return forms
    if (relative.startsWith('../') || relative === '..') {
      // Out of the session's folder and back into it (`../w/src/a.ts` in `/w`): also read relative to it.
      const absolute = resolvedAbsolute(`${cwd}/${relative}`)
      add(absolute)
      if (isInside(absolute, cwd)) add(absolute.slice(cwd.length + 1))
    } else add(`${cwd}/${relative}`)
  }
  return forms
}

/**
 * An absolute path (`/`, or a drive, either separator) read from each folder below its root that
 * could have been a session's: `/x/src/a.ts` is `src/a.ts` in `/x` and `a.ts` in `/x/src`. Empty
 * for a relative path.
 */
export function pathsBelowFolders(path: string): string[] {
  const absolute = slashed(path)
  if (!isAbsolute(absolute)) return []
  const parts = absolute.split('/')
  const tails: string[] = []
  for (let i = parts[0] === '' ? 2 : 1; i < parts.length; i++) tails.push(parts.slice(i).join('/'))
  return tails
}

const ABSOLUTE_FILE_SUBJECT = /^file:(?:\/|[A-Za-z]:[\\/])/

/**
 * The absolute path a `file:` subject names (from `/`, or a Windows drive), with `/` for
 * separators; null for any other subject.
 */
export function absolutePathOf(subject: string): string | null {
  return ABSOLUTE_FILE_SUBJECT.test(subject) ? slashed(subject.slice(5)) : null
}
