import { joinFolder } from '../../../adapters/shared/shell-folder.js'

/**
 * The folder a session says it opened in (`session.started.cwd`, stream-json's `init.cwd`), as
 * the absolute path it must be to place other paths: without a trailing `/`; null for none or a
 * relative one.
 */
export function sessionFolder(cwd: string | null | undefined): string | null {
  if (typeof cwd !== 'string' || !cwd.startsWith('/')) return null
  const trimmed = cwd.replace(/\/+$/, '')
  return trimmed === '' ? null : trimmed
}

// A `.` or `..` segment, or a doubled `/`: what resolving a path changes.
const UNRESOLVED = /(?:^|\/)\.\.?(?:\/|$)|\/\//

/**
 * Whether a path may have another spelling (`otherPathForms`): asked first, as cheaply as it can
 * be, because most paths have none where the session named no folder.
 */
export function mayHaveOtherForms(path: string, cwd: string | null): boolean {
  if (UNRESOLVED.test(path)) return true
  if (cwd === null || path.startsWith('~')) return false
  return !path.startsWith('/') || (path.startsWith(cwd) && path.charCodeAt(cwd.length) === 0x2f)
}

/**
 * The other spellings of one recorded path, for a selector written in another: harnesses record
 * the same file as `/w/src/a.ts` (Claude Code's, Gemini CLI's absolute paths), `src/a.ts` or
 * `./src/a.ts`, and a spec names it one way (`file:src/*`). Given the session's folder, an
 * absolute path inside it is also read relative to it, and a relative one also as absolute; any
 * path is also read with `.`, `..` and doubled `/` resolved. `folder` is where the call's relative
 * paths start (`''`: where the run started). A relative path from anywhere else (a kept shell's
 * `cd`, a `workdir`) gets no other spelling: which file it names is left to the words no reader
 * can place. Empty where the path has no other spelling.
 */
export function otherPathForms(path: string, cwd: string | null, folder: string): string[] {
  const forms: string[] = []
  const add = (form: string | null): void => {
    if (form !== null && form.length > 0 && form !== path && !forms.includes(form)) forms.push(form)
  }
  // Most paths are clean: they are their own resolved form, and joining them is one concatenation.
  const clean = !UNRESOLVED.test(path)
  if (path.startsWith('/')) {
    const absolute = clean ? path : joinFolder('/', path.slice(1))
    add(absolute)
    if (cwd !== null && absolute.startsWith(cwd) && absolute.charCodeAt(cwd.length) === 0x2f) add(absolute.slice(cwd.length + 1))
  } else if (!path.startsWith('~') && folder === '') {
    const relative = clean ? path : joinFolder('', path)
    add(relative)
    if (cwd !== null) add(relative.startsWith('../') || relative === '..' ? joinFolder(cwd, relative) : `${cwd}/${relative}`)
  }
  return forms
}
