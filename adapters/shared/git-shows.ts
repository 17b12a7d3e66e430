/**
 * The files whose contents a git command prints beyond the words it was given. `unreadOperands`
 * gives every word of a program it reads no operands of, so `git diff src/a.ts` and `git log -p --
 * README.md` name their files already; this names what those words do not:
 * - the file an object names by its path: `git show HEAD:src/a.ts`, `git show :2:uv.lock` (a
 *   merge's own side), `git cat-file -p HEAD:.env` print that file as it was;
 * - everything here (`./**`) where a command prints the contents of files that no path limits:
 *   `git diff`, `git show <commit>`, `git log -p`, `git stash show -p`, `git grep KEY`, `git
 *   archive HEAD`, `git format-patch`, `git add -p`. Which files the commits or the changes hold is
 *   the repository's to say.
 * A command that prints only names or counts (`git diff --stat`, `git log --oneline`, `git show
 * --name-only`) shows no contents, as a listing reads no file.
 */
import { afterDoubleDash, GIT_GLOBAL_VALUED, given, inFolder, readArguments, subcommandOf, valuesOf, type ReadArguments } from './command-arguments.js'
import { EVERYTHING_HERE as HERE } from './shell-folder.js'

const NOTHING: readonly string[] = []

// The options of git's diff machinery that take a value as a word of its own (`-S KEY`, `--author x`);
// `-U3`, `-M50%` and `-O<file>` only ever attach theirs.
const DIFF_VALUED = 'SGLn'
const DIFF_ATTACHED = 'UMCBlOX'
const DIFF_VALUED_LONG = ['--author', '--committer', '--grep', '--since', '--until', '--after', '--before', '--max-count', '--skip', '--output', '--find-object', '--word-diff-regex', '--anchored', '--diff-algorithm', '--submodule', '--src-prefix', '--dst-prefix', '--line-prefix', '--output-indicator-new', '--output-indicator-old', '--output-indicator-context', '--ws-error-highlight', '--rotate-to', '--skip-to', '--exclude', '--glob', '--branches', '--tags', '--remotes', '--min-parents', '--max-parents']
const DIFF_GRAMMAR = { valued: DIFF_VALUED, attached: DIFF_ATTACHED, valuedLong: DIFF_VALUED_LONG }

// What makes a diff print names or counts instead of contents (`--stat`, `--name-only`, `-s`).
const NAMES_ONLY = ['--stat', '--numstat', '--shortstat', '--name-only', '--name-status', '--summary', '--dirstat', '-X', '--compact-summary', '--raw', '-s', '--no-patch', '--quiet']
// What makes `git log` (and `git stash show`) print contents: a patch (`-p`), a word diff, or a search of contents (`-S`, `-G`).
const PATCH = ['-p', '-u', '--patch', '--patch-with-stat', '--patch-with-raw', '--cc', '-c', '--word-diff', '--color-words', '-L', '-S', '-G']
// Subcommands whose `-p` (`--patch`) shows the changes' hunks to choose from: `git add -p`.
const HUNK_CHOOSERS: ReadonlySet<string> = new Set(['add', 'checkout', 'reset', 'restore', 'stash', 'commit'])

// An object by path: `HEAD:src/a.ts`, `:src/a.ts` (the index), `:2:uv.lock` (a merge's side). Not `:/message`, a commit by its message.
const OBJECT_PATH = /^[^:\s]*:(?:[0-3]:)?(?!\/)(.*)$/
// A revision rather than a path: a range, an ancestor, a reflog entry.
const REVISION_SYNTAX = /\.\.|[~^]|@\{/
// A word that reads as a path git is limited to: under a folder, or a file with an extension (`src/a.ts`, `README.md`, `docs/`).
const PATH_LIKE = /(?:\/$|^\.{0,2}\/|\.[A-Za-z][A-Za-z0-9_-]*$)/
// A pathspec that widens what git reads rather than naming it: an exclusion (`:!x`, `:(exclude)x`), magic, a glob git expands itself, or `.` itself.
const WIDENING_PATHSPEC = /^:|[*?[]|^\.\/?$/

/** The path an object names (`HEAD:src/a.ts` is `src/a.ts`; `HEAD:` is the whole tree), undefined for a plain revision. */
function objectPath(word: string): string | undefined {
  const path = OBJECT_PATH.exec(word)?.[1]
  if (path === undefined) return undefined
  return path === '' || path === '.' || path === './' ? HERE : path
}

/** Whether the paths git was given limit what it shows: after `--`, or an operand that can only be a path. */
function limitedByPaths(args: readonly string[], operands: readonly string[]): boolean {
  const paths = afterDoubleDash(args) ?? operands.filter((word) => PATH_LIKE.test(word) && !REVISION_SYNTAX.test(word) && !word.includes(':'))
  return paths.length > 0 && paths.every((path) => !WIDENING_PATHSPEC.test(path))
}

/** The words before a `--`: revisions and paths alike where there is none. */
function beforeDoubleDash(args: readonly string[], read: ReadArguments): readonly string[] {
  const after = afterDoubleDash(args)
  return after === undefined ? read.operands : read.operands.slice(0, read.operands.length - after.length)
}

const isPath = (path: string | undefined): path is string => path !== undefined

/**
 * What a command of the diff family shows beyond its words: the paths its objects name, and
 * everything here where it prints the changes of commits or of the work tree and no path limits them.
 */
function diffShows(args: readonly string[], read: ReadArguments, printsContents: boolean): readonly string[] {
  const operands = beforeDoubleDash(args, read)
  const objects = operands.map(objectPath)
  // With no object, a diff is the work tree's changes and `git show` is HEAD's; an object by path is that file's contents.
  const showsChanges = objects.length === 0 || objects.some((path) => path === undefined)
  const paths = objects.filter(isPath)
  return printsContents && showsChanges && !limitedByPaths(args, operands) ? [...paths, HERE] : paths
}

function printsPatch(read: ReadArguments): boolean {
  return given(read, '-p', '--patch') || !given(read, ...NAMES_ONLY)
}

function subcommandShows(name: string, args: readonly string[]): readonly string[] {
  switch (name) {
    case 'diff': {
      const read = readArguments(args, DIFF_GRAMMAR)
      // `git diff --no-index a b` compares the two paths it names, which are its words.
      return given(read, '--no-index') ? NOTHING : diffShows(args, read, printsPatch(read))
    }
    case 'show': {
      const read = readArguments(args, DIFF_GRAMMAR)
      return diffShows(args, read, printsPatch(read))
    }
    case 'log':
    case 'whatchanged': {
      const read = readArguments(args, DIFF_GRAMMAR)
      // `-L 1,5:src/a.ts` follows that file's lines: it names the file, and only it.
      const traced = valuesOf(read, '-L').map((range) => range.slice(range.lastIndexOf(':') + 1)).filter((path) => path.length > 0)
      if (traced.length > 0) return traced
      return given(read, ...PATCH) ? diffShows(args, read, true) : NOTHING
    }
    case 'stash': {
      if (args[0] === 'show') {
        const read = readArguments(args.slice(1), DIFF_GRAMMAR)
        return given(read, '-p', '--patch', '--word-diff') ? [HERE] : NOTHING
      }
      return hunksShown(args)
    }
    case 'grep': {
      const read = readArguments(args, { valued: 'efABCm', attached: 'O', valuedLong: ['--max-count', '--max-depth', '--threads', '--context', '--after-context', '--before-context', '--open-files-in-pager'] })
      // The first operand is the pattern unless `-e` or `-f` gave it; the rest are revisions (`HEAD:src` a folder's tree), then paths.
      const before = beforeDoubleDash(args, read)
      const operands = given(read, '-e', '-f') ? before : before.slice(1)
      const paths = operands.map(objectPath).filter(isPath)
      if (paths.length > 0) return paths
      return limitedByPaths(args, operands) ? NOTHING : [HERE]
    }
    case 'archive': {
      const read = readArguments(args, { valued: 'o', valuedLong: ['--output', '--format', '--prefix', '--remote', '--exec', '--add-file', '--add-virtual-file', '--mtime'] })
      const [tree = '', ...rest] = beforeDoubleDash(args, read)
      const path = objectPath(tree)
      if (path !== undefined) return [path]
      return limitedByPaths(args, rest) ? NOTHING : [HERE]
    }
    case 'format-patch':
    case 'range-diff':
      return limitedByPaths(args, afterDoubleDash(args) ?? []) ? NOTHING : [HERE]
    case 'cat-file': {
      const read = readArguments(args, { valuedLong: ['--path', '--filters'] })
      // `-p`, `blob`, `--textconv`, `--filters` print an object's contents; `-t`, `-s`, `-e` its type, size or existence.
      const [first = '', second] = read.operands
      const object = first === 'blob' ? second : given(read, '-p', '--textconv', '--filters') ? first : undefined
      if (object === undefined) return NOTHING
      // A blob by its hash is any file's contents.
      return [objectPath(object) ?? (/^[0-9a-f]{7,64}$/.test(object) ? HERE : undefined)].filter(isPath)
    }
    default:
      return HUNK_CHOOSERS.has(name) ? hunksShown(args) : NOTHING
  }
}

/** `git add -p`, `git checkout -p`…: every change's hunks are shown to choose from, unless paths limit them. */
function hunksShown(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'mcCF', valuedLong: ['--message', '--file', '--reuse-message', '--reedit-message', '--fixup', '--squash', '--author', '--date', '--cleanup', '--pathspec-from-file', '--source'] })
  if (!given(read, '-p', '--patch', '-i', '--interactive')) return NOTHING
  return limitedByPaths(args, read.operands) ? NOTHING : [HERE]
}

/** The files whose contents `git <args>` prints that its words do not name (see the file's comment). */
export function filesGitShows(args: readonly string[]): readonly string[] {
  const sub = subcommandOf(args, GIT_GLOBAL_VALUED)
  return inFolder(sub.folder, subcommandShows(sub.name, sub.args))
}
