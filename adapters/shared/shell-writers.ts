/**
 * The files programs beyond the coreutils write, create or remove among the words they are given:
 * `git rm x`, `git checkout --theirs x`, `perl -pi -e … x`, `sort -o x`, `curl -o x`, `ruff format
 * src`, `npm install lodash` (its `package.json`). `shell.ts` reads the coreutils (`rm`, `cp`, `sed
 * -i`…); this table reads the rest a harness commonly runs. A program that rewrites a whole tree it
 * names no file of (`git pull`, `cargo fmt`, `tar -x`, `patch < fix.diff`) writes everything under
 * the folder it works in (`./**`). Nothing is expanded: a word is given as written.
 */
import { afterDoubleDash, GIT_GLOBAL_VALUED, given, inFolder, readArguments, subcommandOf, valuesOf, type OptionGrammar, type ReadArguments } from './command-arguments.js'
import { filesInPatch } from './patch-files.js'
import { sedScriptFiles, sedScripts } from './sed-script.js'
import { runnerOwnWords } from './shell-wrappers.js'
import { EVERYTHING_HERE as HERE, everythingUnder, foldersOrHere, joinFolder } from './shell-folder.js'
import type { SimpleCommand } from './shell.js'

const NOTHING: readonly string[] = []

// ——— git ———

// Subcommands that rewrite the working tree wherever the commits or the patch differ from it (an `--abort` puts it back: a write too).
const GIT_TREE_WRITERS: ReadonlySet<string> = new Set(['pull', 'merge', 'rebase', 'cherry-pick', 'revert', 'am', 'bisect', 'filter-repo', 'filter-branch'])
// `git stash` subcommands that leave the work tree as it is.
const STASH_LOOKS: ReadonlySet<string> = new Set(['list', 'show', 'create', 'store', 'drop', 'clear'])
// `git apply` options that only look at the patch, or apply it to the index alone.
const APPLY_LOOKS = ['--check', '--stat', '--numstat', '--summary', '--cached']

function gitWrites(args: readonly string[]): readonly string[] {
  const sub = subcommandOf(args, GIT_GLOBAL_VALUED)
  return inFolder(sub.folder, gitSubcommandWrites(sub.name, sub.args))
}

function gitSubcommandWrites(name: string, args: readonly string[]): readonly string[] {
  switch (name) {
    case 'rm': {
      const read = readArguments(args, { valuedLong: ['--pathspec-from-file'] })
      return given(read, '--cached', '-n', '--dry-run') ? NOTHING : withFolders(read.operands, given(read, '-r'))
    }
    case 'mv':
      return readArguments(args).operands
    case 'checkout': {
      const read = readArguments(args, { valued: 'bB', valuedLong: ['--orphan', '--conflict', '--pathspec-from-file'] })
      const paths = afterDoubleDash(args)
      if (paths !== undefined) return paths
      // `git checkout -b new`: a branch at HEAD changes no file; `git checkout -f` throws away every change, `-p` any hunk.
      if (read.operands.length === 0) return given(read, '-f', '--force', '-p', '--patch') ? [HERE] : NOTHING
      // `--theirs`, `--ours`, `--patch`, `--merge`: the operands are paths. Else the first may be a branch, whose tree the work tree becomes.
      if (given(read, '--theirs', '--ours', '-p', '--patch', '-m', '--merge', '--conflict')) return read.operands
      return [...read.operands, HERE]
    }
    case 'restore': {
      const read = readArguments(args, { valued: 's', valuedLong: ['--source', '--pathspec-from-file', '--conflict'] })
      if (given(read, '-S', '--staged') && !given(read, '-W', '--worktree')) return NOTHING
      return read.operands
    }
    case 'clean': {
      const read = readArguments(args, { valued: 'e', valuedLong: ['--exclude'] })
      if (given(read, '-n', '--dry-run')) return NOTHING
      return read.operands.length > 0 ? read.operands.map(everythingUnder) : [HERE]
    }
    case 'reset': {
      const read = readArguments(args, { valuedLong: ['--pathspec-from-file'] })
      return given(read, '--hard', '--merge', '--keep') ? [HERE] : NOTHING
    }
    case 'switch': {
      const read = readArguments(args, { valued: 'cC', valuedLong: ['--create', '--force-create', '--orphan', '--conflict'] })
      return read.operands.length === 0 && given(read, '-c', '-C', '--create', '--force-create') ? NOTHING : [HERE]
    }
    case 'stash':
      return STASH_LOOKS.has(args[0] ?? '') ? NOTHING : (afterDoubleDash(args) ?? [HERE])
    case 'apply': {
      const read = readArguments(args, { valued: 'pC', valuedLong: ['--directory', '--exclude', '--include', '--whitespace'] })
      return given(read, ...APPLY_LOOKS) && !given(read, '--apply', '--index') ? NOTHING : [HERE]
    }
    case 'init': {
      const folder = readArguments(args, { valued: 'b', valuedLong: ['--template', '--separate-git-dir', '--object-format', '--ref-format', '--initial-branch', '--shared'] }).operands[0]
      return [folder === undefined ? '.git/**' : everythingUnder(folder)]
    }
    case 'clone': {
      // `git clone url [dir]`: the folder it names, or the one the URL's last segment names.
      const read = readArguments(args, { valued: 'bcjou', valuedLong: ['--branch', '--config', '--depth', '--origin', '--upload-pack', '--reference', '--separate-git-dir', '--template', '--filter', '--jobs', '--shallow-since', '--shallow-exclude', '--bundle-uri', '--server-option'] })
      const [url, folder] = read.operands
      const named = folder ?? (url === undefined ? undefined : cloneFolder(url))
      return named === undefined ? NOTHING : [everythingUnder(named)]
    }
    case 'worktree': {
      // `git worktree add [-b new] path [commit]`, `git worktree remove path`.
      const [action = '', ...rest] = args
      const read = readArguments(rest, { valued: 'bB', valuedLong: ['--reason'] })
      return ['add', 'remove', 'move'].includes(action) ? read.operands.slice(0, action === 'move' ? 2 : 1).map(everythingUnder) : NOTHING
    }
    case 'submodule': {
      // `git submodule add url [path]` (and `.gitmodules`); `update` checks every submodule out.
      const [action = '', ...rest] = args
      const read = readArguments(rest, { valued: 'b', valuedLong: ['--branch', '--name', '--reference', '--depth'] })
      if (action === 'add') {
        const [url, path] = read.operands
        const named = path ?? (url === undefined ? undefined : cloneFolder(url))
        return named === undefined ? ['.gitmodules'] : ['.gitmodules', everythingUnder(named)]
      }
      return ['update', 'deinit', 'sync'].includes(action) ? [HERE] : NOTHING
    }
    case 'config': {
      // `git config -f f a.b c` writes `f`, unless it only reads (`--get`, `--list`).
      const read = readArguments(args, { valued: 'f', valuedLong: ['--file', '--blob', '--type', '--default'] })
      const reads = given(read, '-l', '--list', '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool') || read.operands.length < 2 && !given(read, '--unset', '--unset-all', '--remove-section', '--rename-section', '--add', '--replace-all')
      return reads ? NOTHING : valuesOf(read, '-f', '--file')
    }
    case 'archive':
      return valuesOf(readArguments(args, { valued: 'o', valuedLong: ['--output', '--format', '--prefix', '--remote', '--exec'] }), '-o', '--output')
    case 'format-patch': {
      // Into the folder `-o` names, or here as `0001-….patch`.
      const read = readArguments(args, { valued: 'ov', valuedLong: ['--output-directory', '--output', '--subject-prefix', '--in-reply-to', '--to', '--cc', '--from', '--signature', '--base', '--suffix', '--start-number', '--reroll-count'] })
      if (given(read, '--stdout')) return NOTHING
      const folder = valuesOf(read, '-o', '--output-directory').at(-1)
      return folder === undefined ? [...valuesOf(read, '--output'), '0*.patch'] : [everythingUnder(folder)]
    }
    case 'bundle':
      return args[0] === 'create' ? readArguments(args.slice(1), { valuedLong: ['--version'] }).operands.slice(0, 1) : NOTHING
    // `git sparse-checkout set src` and `git lfs pull` rewrite the work tree; `list` and `fetch` leave it.
    case 'sparse-checkout':
      return ['set', 'add', 'reapply', 'disable', 'init'].includes(args[0] ?? '') ? [HERE] : NOTHING
    case 'lfs':
      return ['pull', 'checkout'].includes(args[0] ?? '') ? [HERE] : NOTHING
    // `git checkout-index -a -f` writes every file the index holds, else the files it names; `git read-tree -u` updates the tree.
    case 'checkout-index': {
      const read = readArguments(args, { valuedLong: ['--prefix', '--stage'] })
      return given(read, '-a', '--all') ? [HERE] : read.operands
    }
    case 'read-tree':
      return args.includes('-u') ? [HERE] : NOTHING
    // `git merge-file current base other` writes the merge into `current`, unless it prints it (`-p`).
    case 'merge-file': {
      const read = readArguments(args, { valued: 'L', valuedLong: ['--marker-size'] })
      return given(read, '-p', '--stdout') ? NOTHING : read.operands.slice(0, 1)
    }
    default:
      return GIT_TREE_WRITERS.has(name) ? [HERE] : NOTHING
  }
}

/** The words as written, and everything under each where the program goes down through folders (`git rm -r src`). */
function withFolders(words: readonly string[], down: boolean): string[] {
  return down ? words.flatMap((word) => [word, everythingUnder(word)]) : [...words]
}

// ——— in-place editors and output options ———

/** `perl -pi -e … f`, `ruby -i …`: with `-i`, the operands after the script (the first, when no `-e` gave it). */
function scriptInPlace(args: readonly string[]): readonly string[] {
  // `-0777` and `-l` take digits only, so `-0pi` is `-0 -p -i`: their digits read as letters of their own.
  const read = readArguments(args, { valued: 'eEIrx', attached: 'iCdDmMV' })
  if (!given(read, '-i')) return NOTHING
  return given(read, '-e', '-E') ? read.operands : read.operands.slice(1)
}

const AWK_GRAMMAR = { valued: 'fvFiEel', valuedLong: ['--file', '--assign', '--field-separator', '--include', '--load', '--exec', '--source'] }
// An awk `print` or `printf` that sends its output to a file (`print > "out.txt"`, `printf … >> log`):
// in awk, a `>` inside a print is always a redirection.
const AWK_PRINTS_TO_FILE = /\bprintf?\b[^;{}\n]*>/
// A string in an awk program.
const AWK_STRING = /"((?:[^"\\\n]|\\.)*)"/g
// Where awk prints to a stream, not a file (`print … > "/dev/stderr"`).
const STREAM_FILE = /^\/dev\/(?:stdout|stderr|fd\/[0-9]+)$/

/**
 * `gawk -i inplace '{…}' f`: the operands after the program (the first, when no `-f` gave it); and
 * where the program prints to a file (`awk '{print > "out/" $1 ".txt"}'`), every string in it that
 * may be a path, as for code an interpreter runs: which one it writes, only running it would tell.
 */
function awkWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, AWK_GRAMMAR)
  const fromFile = given(read, '-f', '--file', '-E', '--exec')
  const programs = [...valuesOf(read, '-e', '--source'), ...(fromFile ? [] : read.operands.slice(0, 1))]
  const printed = programs.filter((program) => AWK_PRINTS_TO_FILE.test(program)).flatMap((program) => [...program.matchAll(AWK_STRING)].map((match) => match[1] as string))
  const inPlace = valuesOf(read, '-i', '--include').some((name) => name === 'inplace' || name === 'inplace.awk') ? (fromFile ? read.operands : read.operands.slice(1)) : NOTHING
  return [...inPlace, ...printed.filter((string) => PATH_STRING.test(string) && !STREAM_FILE.test(string))]
}

/** `sed -n '/ERROR/w errors.log' app.log`, `sed 's/a/b/w changed.txt' f`: the files its script writes (`sedScriptFiles`). */
function sedWrites(args: readonly string[]): readonly string[] {
  return sedScripts(args).flatMap((script) => sedScriptFiles(script).written)
}

// `xxd`'s options that take a value, in its one-dash long spellings too (`-cols 8`, `-s 0x10`).
const XXD_VALUED: ReadonlySet<string> = new Set(['-c', '-cols', '-g', '-groupsize', '-l', '-len', '-s', '-seek', '-o', '-offset', '-n', '-name'])

/** `xxd in out`, `xxd -r dump.hex out.bin`: the second operand, where it is no `-` (standard output). */
function xxdOutput(args: readonly string[]): readonly string[] {
  const operands: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (XXD_VALUED.has(arg)) i++
    else if (arg === '-' || !arg.startsWith('-')) operands.push(arg)
  }
  const output = operands[1]
  return output === undefined || output === '-' ? NOTHING : [output]
}

/** `yq -i '.a = 1' f.yaml`: the operands after the expression. */
function yqInPlace(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'pIo', valuedLong: ['--input-format', '--output-format', '--indent', '--expression', '--from-file'] })
  if (!given(read, '-i', '--inplace')) return NOTHING
  return given(read, '--expression', '--from-file') ? read.operands : read.operands.slice(1)
}

/** `sd before after f…`: replaces in the files it is given, in place unless it only previews. */
function sdInPlace(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'nf', valuedLong: ['--max-replacements', '--flags'] })
  return given(read, '-p', '--preview') ? NOTHING : read.operands.slice(2)
}

/** `sort -o f`, `sort --output=f`. */
function sortOutput(args: readonly string[]): readonly string[] {
  return valuesOf(readArguments(args, { valued: 'kotST', valuedLong: ['--key', '--output', '--field-separator', '--buffer-size', '--temporary-directory', '--parallel', '--batch-size', '--compress-program', '--files0-from', '--sort', '--random-source'] }), '-o', '--output')
}

/** `uniq in out`: its second operand. */
function uniqOutput(args: readonly string[]): readonly string[] {
  return readArguments(args, { valued: 'fsw', valuedLong: ['--skip-fields', '--skip-chars', '--check-chars', '--group', '--all-repeated'] }).operands.slice(1, 2)
}

/** Every operand: `sponge f`, `dos2unix f`, an editor's files. */
function everyOperand(grammar: OptionGrammar = {}): (args: readonly string[]) => readonly string[] {
  return (args) => readArguments(args, grammar).operands.filter((word) => !word.startsWith('+'))
}

// ——— downloads, archives and patches ———

/** The file a URL's last segment names, as `curl -O` and `wget` save it. */
function remoteName(url: string): string[] {
  const path = url.replace(/[?#].*$/, '').replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*/, '')
  const name = path.slice(path.lastIndexOf('/') + 1)
  return name.length > 0 ? [name] : []
}

const CURL_GRAMMAR: OptionGrammar = {
  valued: 'AbcCdDeEFHKmoPQrTuUwxXyYz',
  valuedLong: ['--output', '--output-dir', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--data', '--data-raw', '--data-binary', '--data-urlencode', '--header', '--user', '--user-agent', '--request', '--url', '--proxy', '--form', '--cookie', '--referer', '--max-time', '--connect-timeout', '--retry', '--config', '--cacert', '--cert', '--key', '--write-out', '--range', '--upload-file', '--resolve'],
}

/** The folder a clone of a repository lands in when none is named: its last segment, without `.git` (`git clone https://h/x.git`, `gh repo clone o/x`). */
function cloneFolder(repository: string): string | undefined {
  return remoteName(repository.replace(/\/+$/, ''))[0]?.replace(/\.git$/, '')
}

/** `curl -o f`, `curl -O url` (the URL's name), `-D`/`-c` files; in `--output-dir`. */
function curlWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, CURL_GRAMMAR)
  const named = valuesOf(read, '-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--stderr').filter((file) => file !== '-')
  const remote = given(read, '-O', '--remote-name', '--remote-name-all') ? [...read.operands, ...valuesOf(read, '--url')].flatMap(remoteName) : []
  const folder = valuesOf(read, '--output-dir').at(-1) ?? ''
  return inFolder(folder, [...named, ...remote])
}

/** `wget url` saves the URL's name, `-O f` that file, `-P d` into `d`; `-o` and `-a` write a log. */
function wgetWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'OoaPiUTtelADRXIQwB', valuedLong: ['--output-document', '--output-file', '--append-output', '--directory-prefix', '--input-file', '--user-agent', '--timeout', '--tries', '--level', '--header', '--user', '--password'] })
  const logs = valuesOf(read, '-o', '--output-file', '-a', '--append-output')
  const document = valuesOf(read, '-O', '--output-document').filter((file) => file !== '-')
  if (document.length > 0 || valuesOf(read, '-O', '--output-document').includes('-')) return [...logs, ...document]
  const folder = valuesOf(read, '-P', '--directory-prefix').at(-1) ?? ''
  // `-r`/`-m` mirror a site: any file under where they save.
  const saved = given(read, '-r', '--recursive', '-m', '--mirror') ? [HERE] : read.operands.flatMap(remoteName)
  return [...logs, ...inFolder(folder, saved)]
}

/** `tar -xf a.tar [-C d]` writes under `d` (here without one); `tar -cf out.tar …` writes the archive. Old style too: `tar xzf a.tgz`. */
function tarWrites(args: readonly string[]): readonly string[] {
  const first = args[0]
  const words = first !== undefined && !first.startsWith('-') && /^[a-zA-Z]+$/.test(first) ? [`-${first}`, ...args.slice(1)] : args
  const read = readArguments(words, { valued: 'fCbHKLNTVXg', valuedLong: ['--file', '--directory', '--exclude', '--files-from', '--exclude-from', '--transform', '--strip-components', '--owner', '--group', '--mode', '--format', '--use-compress-program', '--newer', '--after-date'] })
  if (given(read, '-x', '--extract', '--get')) {
    const folder = valuesOf(read, '-C', '--directory').at(-1) ?? ''
    return inFolder(folder, read.operands.length > 0 ? withFolders(read.operands, true) : [HERE])
  }
  if (given(read, '-c', '--create', '-r', '--append', '-u', '--update', '--delete', '-A', '--catenate', '--concatenate')) return valuesOf(read, '-f', '--file').filter((file) => file !== '-')
  return NOTHING
}

/** `unzip a.zip [-d d]` writes under `d` (here without one); `-l`, `-t`, `-Z`, `-p` only look or print. */
function unzipWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'dxP', valuedLong: [] })
  if (given(read, '-l', '-t', '-Z', '-p', '-z', '-v')) return NOTHING
  const folder = valuesOf(read, '-d').at(-1) ?? ''
  return inFolder(folder, [HERE])
}

/** `7z x a.7z [-od]` writes under `d` (here without one); `7z a out.7z f…` (and `u`, `d`, `rn`) writes the archive; `l`, `t` only look. */
function sevenZipWrites(args: readonly string[]): readonly string[] {
  const [command = '', ...rest] = args
  const operands = rest.filter((arg) => !arg.startsWith('-'))
  if (command === 'x' || command === 'e') {
    return foldersOrHere([optionValues(rest, ['-o'], true).at(-1)])
  }
  return ['a', 'u', 'd', 'rn'].includes(command) ? operands.slice(0, 1) : NOTHING
}

/** `unrar x a.rar [d/]` (and `e`): under the folder after the archive, or here. */
function unrarWrites(args: readonly string[]): readonly string[] {
  const [command = '', ...rest] = args
  return command === 'x' || command === 'e' ? foldersOrHere([rest.filter((arg) => !arg.startsWith('-'))[1]]) : NOTHING
}

/** `ar x lib.a` extracts here; `ar rcs lib.a a.o` (and `q`, `d`, `m`) writes the archive. Its first word is its command letters. */
function arWrites(args: readonly string[]): readonly string[] {
  const [letters = '', archive] = args
  if (/x/.test(letters)) return [HERE]
  return /[rqdm]/.test(letters) && archive !== undefined ? [archive] : NOTHING
}

/** `cpio -i` (`--extract`) writes what it reads from its archive here; `cpio -p d` (`--pass-through`) copies the files it is fed under `d`. */
function cpioWrites(args: readonly string[]): readonly string[] {
  if (args.some((arg) => /^-[a-zA-Z]*p/.test(arg) || arg === '--pass-through')) return args.filter((arg) => !arg.startsWith('-')).slice(-1).map(everythingUnder)
  return args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg === '--extract') ? [HERE] : NOTHING
}

/** `zip out.zip f…` writes the archive; `-m` moves the files into it. */
function zipWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'bnPtx', valuedLong: ['--exclude', '--include', '--password'] })
  const [archive, ...files] = read.operands
  if (archive === undefined) return NOTHING
  return given(read, '-m', '--move') ? [archive, ...files] : [archive]
}

/** `gzip f` replaces `f` with `f.gz`; `gunzip f.gz` the other way; `-c` writes to stdout, `-l`/`-t` only look. */
function compressorWrites(suffix: string, decompresses: boolean): (args: readonly string[]) => readonly string[] {
  return (args) => {
    const read = readArguments(args, { valued: 'bSo', valuedLong: ['--suffix', '--format', '--threads', '--output'] })
    if (given(read, '-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test')) return NOTHING
    // `zstd f -o out`: the output it names, and no other.
    const output = valuesOf(read, '-o', '--output')
    if (output.length > 0) return output
    const back = decompresses || given(read, '-d', '--decompress', '--uncompress')
    return read.operands.flatMap((file) => (back ? [file, file.endsWith(suffix) ? file.slice(0, -suffix.length) : file] : [file, `${file}${suffix}`]))
  }
}

/** `patch f < fix.diff` writes `f`; `-o out` writes `out`; with no file named, whatever the diff names, under `-d`. */
function patchWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'pdoiBDFgrVYz', valuedLong: ['--strip', '--directory', '--output', '--input', '--prefix', '--reject-file', '--backup-if-mismatch', '--suffix', '--fuzz', '--quoting-style'] })
  if (given(read, '--dry-run', '-C', '--check')) return NOTHING
  const output = valuesOf(read, '-o', '--output')
  if (output.length > 0) return output
  const folder = valuesOf(read, '-d', '--directory').at(-1) ?? ''
  // `patch [options] [originalfile [patchfile]]`.
  return inFolder(folder, read.operands.length > 0 ? read.operands.slice(0, 1) : [HERE])
}

/** `rsync a/ d/`, `scp a d`, `docker cp box:/x d`: the last operand, unless it is on another host (`host:path`). */
function destinationWrites(grammar: OptionGrammar, removesSources: (read: ReadArguments) => boolean = () => false): (args: readonly string[]) => readonly string[] {
  return (args) => {
    const read = readArguments(args, grammar)
    const destination = read.operands.at(-1)
    if (read.operands.length < 2 || destination === undefined) return NOTHING
    const local = (word: string): boolean => !/^[^/]*:/.test(word)
    const sources = removesSources(read) ? read.operands.slice(0, -1).filter(local) : []
    return [...(local(destination) ? withFolders([destination], true) : []), ...sources]
  }
}

/** `docker cp box:/x d`, `kubectl cp pod:/x d`: the destination, unless it is in the container. */
function containerCopyWrites(args: readonly string[]): readonly string[] {
  const [subcommand = '', ...rest] = args
  if (subcommand !== 'cp') return NOTHING
  return destinationWrites({ valued: 'c', valuedLong: ['--container', '--namespace'] })(rest)
}

// ——— formatters and fixers ———

/** A rule read after one of a program's subcommands (`php-cs-fixer fix`, `taplo fmt`); with `optional`, also with none named (`swift-format -i f`). */
function afterSubcommand(names: readonly string[], rule: Rule, optional = false): Rule {
  return (args) => (names.includes(args[0] ?? '') ? rule(args.slice(1)) : optional && args[0] !== undefined && args[0].startsWith('-') ? rule(args) : NOTHING)
}

/** A formatter or fixer that rewrites the files and folders it is given (here, given none and `here`), when `rewrites` says it does. */
function rewriter(grammar: OptionGrammar, rewrites: (read: ReadArguments) => boolean, here: boolean): (args: readonly string[]) => readonly string[] {
  return (args) => {
    const read = readArguments(args, grammar)
    if (!rewrites(read)) return NOTHING
    return read.operands.length > 0 ? read.operands : here ? [HERE] : NOTHING
  }
}

const PRETTIER_VALUED = ['--config', '--ignore-path', '--parser', '--plugin', '--print-width', '--tab-width', '--trailing-comma', '--log-level', '--stdin-filepath', '--cache-location', '--cache-strategy', '--end-of-line', '--arrow-parens', '--prose-wrap', '--quote-props', '--embedded-language-formatting', '--html-whitespace-sensitivity', '--config-precedence', '--cursor-offset', '--range-start', '--range-end', '--object-wrap', '--experimental-operator-position']
const ESLINT_VALUED = ['--config', '--ext', '--rule', '--format', '--output-file', '--ignore-path', '--ignore-pattern', '--parser', '--plugin', '--rulesdir', '--max-warnings', '--cache-location', '--resolve-plugins-relative-to', '--env', '--global', '--parser-options', '--stdin-filename', '--report-unused-disable-directives-severity', '--fix-type', '--flag', '--concurrency']
const BLACK_VALUED = ['--line-length', '--target-version', '--config', '--include', '--exclude', '--extend-exclude', '--force-exclude', '--stdin-filename', '--workers', '--python-cell-magics', '--required-version', '--code']
const RUFF_SUBCOMMANDS: ReadonlySet<string> = new Set(['check', 'format', 'rule', 'config', 'linter', 'clean', 'server', 'analyze', 'version', 'help'])
const RUFF_VALUED = ['--config', '--select', '--ignore', '--extend-select', '--extend-ignore', '--line-length', '--target-version', '--exclude', '--extend-exclude', '--per-file-ignores', '--output-format', '--output-file', '--stdin-filename', '--cache-dir', '--fixable', '--unfixable', '--range']

/** `eslint --fix`: the files it fixes, and the report `-o` writes. */
function eslintWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'cfo', valuedLong: ESLINT_VALUED })
  const report = valuesOf(read, '-o', '--output-file')
  return given(read, '--fix') ? [...report, ...(read.operands.length > 0 ? read.operands : [HERE])] : report
}

/** `ruff format [paths]`, `ruff check --fix [paths]` (`ruff --fix` before subcommands): here when no path; `-o` writes a report. */
function ruffWrites(args: readonly string[]): readonly string[] {
  // Before its subcommands, `ruff . --fix` checked: any other first word is a path.
  const named = RUFF_SUBCOMMANDS.has(args[0] ?? '')
  const subcommand = named ? (args[0] as string) : 'check'
  const read = readArguments(named ? args.slice(1) : args, { valued: 'eo', valuedLong: RUFF_VALUED })
  const report = valuesOf(read, '-o', '--output-file')
  const fixes = subcommand === 'format' ? !given(read, '--check', '--diff') : subcommand === 'check' && given(read, '--fix', '--fix-only') && !given(read, '--diff', '--no-fix')
  return fixes ? [...report, ...(read.operands.length > 0 ? read.operands : [HERE])] : report
}

/** `biome format --write`, `biome check --write` (`--apply`, `--fix` in older releases), `biome lint --write`. */
function biomeWrites(args: readonly string[]): readonly string[] {
  const [subcommand = '', ...rest] = args
  if (!['format', 'check', 'lint'].includes(subcommand)) return NOTHING
  return rewriter({ valuedLong: ['--config-path', '--max-diagnostics', '--stdin-file-path', '--reporter', '--vcs-root'] }, (read) => given(read, '--write', '--apply', '--apply-unsafe', '--fix'), true)(rest)
}

/** `deno fmt [paths]` (unless `--check`), `deno lint --fix`. */
function denoWrites(args: readonly string[]): readonly string[] {
  const [subcommand = '', ...rest] = args
  if (subcommand === 'fmt') return rewriter({ valuedLong: ['--config', '--ext', '--ignore'] }, (read) => !given(read, '--check'), true)(rest)
  if (subcommand === 'lint') return rewriter({ valuedLong: ['--config', '--rules-tags', '--rules-include', '--rules-exclude', '--ignore'] }, (read) => given(read, '--fix'), true)(rest)
  return NOTHING
}

/** `go fmt ./...`, `go mod tidy`, `go get x`: package patterns as folders, `go.mod` and `go.sum`. */
function goWrites(args: readonly string[]): readonly string[] {
  const { name: subcommand, args: rest, folder } = subcommandOf(args, ['-C'])
  const read = readArguments(rest, { valuedLong: ['-modfile'] })
  if (subcommand === 'fmt' || subcommand === 'fix' || subcommand === 'generate') return inFolder(folder, read.operands.length > 0 ? read.operands.map(goPackageFolder) : [HERE])
  // `go build -o bin/app .`, `go test -c -o x.test`: the binary it names.
  if (subcommand === 'build' || subcommand === 'test') {
    const named = optionValues(rest, ['-o'])
    // `go build` of one main package writes its binary here, named after the package: which file, only the module says.
    // Of several packages (`./...`), it keeps nothing.
    const one = read.operands.length <= 1 && !read.operands.some((pattern) => pattern.endsWith('...'))
    return inFolder(folder, named.length > 0 || subcommand === 'test' || !one ? named : ['*'])
  }
  if (subcommand === 'get' || (subcommand === 'mod' && ['tidy', 'init', 'edit', 'download', 'vendor'].includes(read.operands[0] ?? ''))) {
    return inFolder(folder, read.operands[0] === 'vendor' ? ['go.mod', 'go.sum', 'vendor/**'] : ['go.mod', 'go.sum'])
  }
  return NOTHING
}

/** A Go package pattern as the folder whose files it names: `./...` is here, `./pkg/...` is `pkg/**`. */
function goPackageFolder(pattern: string): string {
  if (pattern === './...' || pattern === '...') return HERE
  return pattern.endsWith('/...') ? everythingUnder(pattern.slice(0, -4)) : pattern
}

/** `cargo fmt`, `cargo fix`, `cargo clippy --fix` rewrite the crate; `cargo add`/`remove`/`update` its manifest and lock. */
function cargoWrites(args: readonly string[]): readonly string[] {
  // `cargo +nightly fmt`: the toolchain comes first.
  const sub = subcommandOf(args[0]?.startsWith('+') === true ? args.slice(1) : args, ['--manifest-path', '-Z', '--config', '--color'])
  const read = readArguments(sub.args, { valued: 'pF', valuedLong: ['--package', '--features', '--manifest-path', '--target', '--edition', '--message-format'] })
  switch (sub.name) {
    case 'fmt':
      return given(read, '--check') ? NOTHING : [HERE]
    case 'fix':
      return [HERE]
    case 'clippy':
      return given(read, '--fix') ? [HERE] : cargoBuildFiles(sub.args, read)
    case 'add':
    case 'remove':
    case 'rm':
      return ['Cargo.toml', 'Cargo.lock']
    case 'update':
    case 'generate-lockfile':
      return ['Cargo.lock']
    // `cargo new x` creates the crate `x`; `cargo init [x]` makes one of the folder.
    case 'new':
      return read.operands.slice(0, 1).map(everythingUnder)
    case 'init':
      return [read.operands[0] === undefined ? HERE : everythingUnder(read.operands[0])]
    default:
      return CARGO_BUILDS.has(sub.name) ? cargoBuildFiles(sub.args, read) : NOTHING
  }
}

/** A cargo build writes into `target/` and resolves the lock where it is missing or stale (unless `--locked` or `--frozen`). */
function cargoBuildFiles(args: readonly string[], read: ReadArguments): readonly string[] {
  // `--target-dir d` builds into `d` instead, which the output options name.
  return [...(optionValues(args, ['--target-dir']).length > 0 ? [] : ['target/**']), ...(given(read, '--locked', '--frozen') ? [] : ['Cargo.lock'])]
}

// cargo's subcommands that build: into `target/`, with the lock resolved.
const CARGO_BUILDS: ReadonlySet<string> = new Set(['build', 'b', 'check', 'c', 'test', 't', 'run', 'r', 'bench', 'doc', 'd', 'clean', 'rustc', 'rustdoc'])

// ——— build tools: what a build makes, where the tool keeps it ———

/** `python3 -m venv .venv`, `virtualenv env`: the environment it makes. */
function environmentFolders(grammar: OptionGrammar): Rule {
  return (args) => readArguments(args, grammar).operands.map(everythingUnder)
}

// `cmake -E` commands that make, change or remove the files they are given (a copy's sources among them).
const CMAKE_FILE_COMMANDS: ReadonlySet<string> = new Set(['make_directory', 'remove', 'rm', 'remove_directory', 'rename', 'touch', 'touch_nocreate', 'create_symlink', 'create_hardlink', 'copy', 'copy_directory', 'copy_directory_if_different', 'copy_if_different'])

/** `cmake -B build`, `cmake --build build`; a configure with neither builds where it runs. `cmake -E` runs a command on its operands. */
function cmakeWrites(args: readonly string[]): readonly string[] {
  const first = args[0] ?? ''
  if (first === '-E') return CMAKE_FILE_COMMANDS.has(args[1] ?? '') ? args.slice(2).filter((arg) => !arg.startsWith('-')) : NOTHING
  if (first === '--build') return args[1] === undefined ? NOTHING : [everythingUnder(args[1])]
  if (args.some((arg) => ['--version', '--help', '-P', '--install', '--system-information'].includes(arg))) return NOTHING
  const folders = optionValues(args, ['-B'], true)
  return folders.length > 0 ? folders.map(everythingUnder) : [HERE]
}

// meson's subcommands that build in a build folder (`-C d`, or where they run).
const MESON_BUILDS: ReadonlySet<string> = new Set(['compile', 'install', 'test', 'dist'])

/** `meson setup build` (or the older `meson build`), `meson compile -C build`: the build folder. */
function mesonWrites(args: readonly string[]): readonly string[] {
  const [subcommand = '', ...rest] = args
  if (MESON_BUILDS.has(subcommand)) return foldersOrHere(optionValues(rest, ['-C'], true))
  const folder = (subcommand === 'setup' ? rest : args).find((arg) => !arg.startsWith('-'))
  return folder === undefined ? NOTHING : [everythingUnder(folder)]
}

/** `ninja -C build`, `ninja`: the folder it builds in, unless it only lists or tries (`-t`, `-n`). */
function ninjaWrites(args: readonly string[]): readonly string[] {
  return args.includes('-t') || args.includes('-n') ? NOTHING : foldersOrHere(optionValues(args, ['-C'], true))
}

/** A build tool that keeps what it builds in fixed folders of the project (`mvn package`: `target/**`), unless it only prints (`--version`). */
function buildFolders(folders: readonly string[], builds: (args: readonly string[]) => boolean = (args) => args.some((arg) => !arg.startsWith('-'))): Rule {
  return (args) => (builds(args) && !args.some((arg) => arg === '--version' || arg === '-v' || arg === '--help' || arg === '-h') ? folders : NOTHING)
}

// dotnet's subcommands that build: into `bin/` and `obj/`, or where `-o` says.
const DOTNET_BUILDS: ReadonlySet<string> = new Set(['build', 'test', 'run', 'publish', 'pack', 'clean', 'restore'])
const DOTNET_PROJECT = projectTool({ creates: ['new'], templateFirst: true, formats: { format: (read) => !given(read, '--verify-no-changes') } })

/** `dotnet build` (`bin/**`, `obj/**`, or `-o d`), `dotnet new`, `dotnet format`. */
function dotnetWrites(args: readonly string[]): readonly string[] {
  if (!DOTNET_BUILDS.has(args[0] ?? '')) return DOTNET_PROJECT(args)
  return ['bin/**', 'obj/**', ...optionValues(args.slice(1), ['-o', '--output']).map(everythingUnder)]
}

// ——— package managers: what their manifest and lock record ———

interface PackageManager {
  readonly lockfiles: readonly string[]
  /** Subcommands that change what the manifest and lock record (and install it). */
  readonly changes: ReadonlySet<string>
  /** Subcommands that install what they record (the lock, the installed tree). */
  readonly installs: ReadonlySet<string>
  /** Subcommands that write only the manifest. */
  readonly manifest: ReadonlySet<string>
  readonly installedTree: string
  readonly manifestFile: string
  /** The subcommand run with none named (`yarn` installs). */
  readonly bare?: string
  /** Subcommands that run an initializer package, named first, to scaffold a project (`npm create vite my-app`). */
  readonly initializers?: ReadonlySet<string>
  /** Subcommands that make a project of the folder they are given, or of here (`uv init [d]`, `poetry new d`, `bun init`). */
  readonly projects?: ReadonlySet<string>
  /** Whether `run` syncs the project's environment, and locks it where the lock is stale, before it runs the program (`uv run`). */
  readonly runSyncs?: boolean
}

const NODE_INSTALLED = 'node_modules/**'
// Subcommands that change the manifest whatever their words (`pnpm remove` names what it drops).
const RECORDING: ReadonlySet<string> = new Set(['add', 'a', 'remove', 'rm', 'r', 'uninstall', 'un', 'unlink'])
const NPM_FOLDER_OPTIONS = ['--prefix', '-C', '--dir', '--cwd']

const PACKAGE_MANAGERS: ReadonlyMap<string, PackageManager> = new Map<string, PackageManager>([
  ['npm', { lockfiles: ['package-lock.json'], changes: new Set(['install', 'i', 'in', 'ins', 'inst', 'add', 'uninstall', 'un', 'remove', 'rm', 'r', 'unlink', 'update', 'up', 'upgrade', 'dedupe', 'ddp', 'prune']), installs: new Set(['ci', 'clean-install', 'install-clean', 'rebuild']), manifest: new Set(['version', 'pkg', 'init', 'create']), installedTree: NODE_INSTALLED, manifestFile: 'package.json', initializers: new Set(['init', 'create', 'innit']) }],
  ['pnpm', { lockfiles: ['pnpm-lock.yaml'], changes: new Set(['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'prune', 'dedupe', 'import']), installs: new Set(['rebuild']), manifest: new Set(['version', 'init', 'pkg']), installedTree: NODE_INSTALLED, manifestFile: 'package.json', initializers: new Set(['create']) }],
  ['yarn', { lockfiles: ['yarn.lock'], changes: new Set(['install', 'add', 'remove', 'upgrade', 'up', 'dedupe', 'import']), installs: new Set(), manifest: new Set(['version', 'init', 'set']), installedTree: NODE_INSTALLED, manifestFile: 'package.json', bare: 'install', initializers: new Set(['create']) }],
  ['bun', { lockfiles: ['bun.lock', 'bun.lockb'], changes: new Set(['install', 'i', 'add', 'a', 'remove', 'rm', 'update', 'link', 'unlink']), installs: new Set(), manifest: new Set(), installedTree: NODE_INSTALLED, manifestFile: 'package.json', initializers: new Set(['create', 'c']), projects: new Set(['init']) }],
  ['poetry', { lockfiles: ['poetry.lock'], changes: new Set(['add', 'remove', 'update', 'lock', 'install', 'sync']), installs: new Set(), manifest: new Set(['init', 'version']), installedTree: '.venv/**', manifestFile: 'pyproject.toml', projects: new Set(['new']) }],
  ['uv', { lockfiles: ['uv.lock'], changes: new Set(['add', 'remove', 'lock', 'sync']), installs: new Set(), manifest: new Set(['version']), installedTree: '.venv/**', manifestFile: 'pyproject.toml', projects: new Set(['init']), runSyncs: true }],
])

function packageManagerWrites(manager: PackageManager): (args: readonly string[]) => readonly string[] {
  return (args) => {
    const sub = subcommandOf(args, [...NPM_FOLDER_OPTIONS, '--filter', '-F', '--workspace', '-w', '--registry', '--loglevel', '--cache', '--project', '--directory'])
    const name = sub.name === '' ? manager.bare : sub.name
    if (name === undefined) return NOTHING
    const read = readArguments(sub.args, { valuedLong: [...NPM_FOLDER_OPTIONS, '--registry', '--tag', '--save-prefix', '--workspace', '--filter', '--group', '--extra', '--python', '--index-url', '--location'] })
    // A global install records nothing in the project.
    if (given(read, '-g', '--global') || valuesOf(read, '--location').includes('global')) return NOTHING
    const folder = [sub.folder, ...valuesOf(read, ...NPM_FOLDER_OPTIONS)].reduce((at, next) => joinFolder(at, next), '')
    if (manager.changes.has(name)) {
      // Naming packages records them (`npm install x`, `uv add x`); `npm install`, `poetry lock` install or lock what it records.
      const records = read.operands.length > 0 || RECORDING.has(name) ? [manager.manifestFile] : []
      return inFolder(folder, [...records, ...manager.lockfiles, manager.installedTree])
    }
    if (manager.installs.has(name)) return inFolder(folder, [manager.installedTree])
    // `npm create vite my-app`, `npm init next-app`, `yarn create x d`: the initializer scaffolds into the folder it is given, or here.
    if (manager.initializers?.has(name) === true && read.operands.length > 0) return inFolder(folder, scaffoldedFolders(read.operands.slice(1)))
    if (manager.projects?.has(name) === true) return inFolder(folder, scaffoldedFolders(read.operands))
    // `uv run pytest` syncs `.venv` first, and locks where the lock is stale, unless told not to (`--frozen`, `--no-sync`).
    if (manager.runSyncs === true && name === 'run') {
      const own = runnerOwnWords('uv', ['run', ...sub.args]) ?? []
      if (own.some((word) => word === '--no-sync' || word === '--no-project' || word === '--isolated')) return NOTHING
      const locks = own.some((word) => word === '--frozen' || word === '--locked') ? [] : manager.lockfiles
      return inFolder(folder, [...locks, manager.installedTree])
    }
    // `uv venv [d]` makes the environment (`.venv` by default); `uv pip install x` installs into it.
    if (manager.runSyncs === true && name === 'venv') return inFolder(folder, [everythingUnder(read.operands[0] ?? '.venv')])
    if (manager.runSyncs === true && name === 'pip' && ['install', 'uninstall', 'sync'].includes(read.operands[0] ?? '')) return inFolder(folder, [manager.installedTree])
    // `npm audit fix` changes what the lock records to mend it.
    if (name === 'audit' && read.operands[0] === 'fix') return inFolder(folder, [manager.manifestFile, ...manager.lockfiles, manager.installedTree])
    // `npm version` and `npm pkg get` only print; `npm version patch` and `npm pkg set x=y` write.
    const prints = (name === 'version' && read.operands.length === 0) || (name === 'pkg' && !['set', 'delete', 'fix'].includes(read.operands[0] ?? ''))
    if (manager.manifest.has(name) && !prints) return inFolder(folder, [manager.manifestFile])
    return NOTHING
  }
}

// ——— scaffolders: a project made from a template ———

/** A scaffolder's words that are no option: which of them names the folder it creates, only its own grammar says, so each may (`foldersOrHere`). */
const scaffoldedFolders = (words: readonly string[]): string[] => foldersOrHere(words.filter((word) => !word.startsWith('-')))

/** `npx create-next-app my-app`, `degit user/repo my-app`, `cookiecutter t -o d`: the folder it is given, or here. */
function scaffolder(grammar: OptionGrammar, skip = 0, outputs: readonly string[] = []): Rule {
  return (args) => {
    const read = readArguments(args, grammar)
    const output = valuesOf(read, ...outputs)
    return output.length > 0 ? output.map(everythingUnder) : scaffoldedFolders(read.operands.slice(skip))
  }
}

/** A tool whose subcommands make a project, write into the one here, or format it. */
interface ProjectTool {
  /** Make the project they name (`rails new blog`, `dotnet new console -o app`: a template first). */
  readonly creates?: readonly string[]
  readonly templateFirst?: boolean
  /** Write into the project here, where its own layout says (`rails generate model user`). */
  readonly generates?: readonly string[]
  /** Rewrite what they are given, or everything here, when the predicate says they write (`mix format`, not `--check-formatted`). */
  readonly formats?: Readonly<Record<string, (read: ReadArguments) => boolean>>
}

function projectTool(tool: ProjectTool): Rule {
  const creates = scaffolder({ valued: 'o', valuedLong: ['--output'] }, tool.templateFirst === true ? 1 : 0, ['-o', '--output'])
  return (args) => {
    const [subcommand = '', ...rest] = args
    if (tool.creates?.includes(subcommand) === true) return creates(rest)
    if (tool.generates?.includes(subcommand) === true) return [HERE]
    const writes = tool.formats?.[subcommand]
    if (writes === undefined) return NOTHING
    const read = readArguments(rest, { valued: 'o', valuedLong: ['--output', '--line-length', '--verbosity'] })
    if (!writes(read)) return NOTHING
    return read.operands.length > 0 ? read.operands : [HERE]
  }
}

const DART_PROJECT = projectTool({ creates: ['create'], formats: { format: (read) => !valuesOf(read, '-o', '--output').some((where) => where !== 'write'), fix: (read) => given(read, '--apply') } })

/** `dart create app`, `dart format`, `dart fix --apply`; `dart compile exe x.dart -o bin/x` writes what `-o` names (its `--output` is its own). */
function dartWrites(args: readonly string[]): readonly string[] {
  return args[0] === 'compile' ? optionValues(args, ['-o', '--output']) : DART_PROJECT(args)
}

/** `django-admin startproject mysite [d]`, `startapp polls [d]`: the folder named last. */
function djangoWrites(args: readonly string[]): readonly string[] {
  const [subcommand = '', ...rest] = args
  if (subcommand !== 'startproject' && subcommand !== 'startapp') return NOTHING
  const [name, folder] = readArguments(rest, { valuedLong: ['--template', '--extension', '--name', '--settings', '--pythonpath'] }).operands
  const named = folder ?? name
  return named === undefined ? NOTHING : [everythingUnder(named)]
}

/** `terraform fmt [d]` rewrites the `.tf` files there, unless it only checks (`-check`, `-write=false`). */
function terraformWrites(args: readonly string[]): readonly string[] {
  const [subcommand = '', ...rest] = args
  if (subcommand !== 'fmt' || rest.some((arg) => arg === '-check' || arg === '-write=false')) return NOTHING
  const folders = rest.filter((arg) => !arg.startsWith('-'))
  return folders.length > 0 ? folders : [HERE]
}

// ——— code an interpreter runs from the line ———

// `python3 -c …`, `node -e …`, `ruby -e …`, `perl -e …`, `php -r …`: the options whose value is code.
const CODE_OPTIONS: ReadonlyMap<RegExp, readonly string[]> = new Map([
  [/^(?:python[0-9.]*|pypy[0-9.]*)$/, ['-c']],
  [/^(?:node|nodejs|bun)$/, ['-e', '--eval', '-p', '--print']],
  [/^ruby$/, ['-e']],
  [/^perl$/, ['-e', '-E']],
  [/^php$/, ['-r']],
])

// A call in code that writes, creates or removes a file: Python's `open(…, 'w')`, `write_text`,
// `os.remove`, `shutil.move`; Node's `writeFileSync`, `rmSync`; Ruby's `File.write`, `FileUtils.rm`;
// Perl's `open(…, '>' …)`, `unlink`; PHP's `file_put_contents`.
const WRITING_CALL = new RegExp(
  [
    String.raw`\bopen\s*\([^)]*,\s*(?:mode\s*=\s*)?['"][rbt]*[wax+]`,
    String.raw`\.(?:write_text|write_bytes|unlink|rmdir|touch|rename|mkdir|symlink_to|chmod|to_csv|to_json|to_parquet|savefig)\s*\(`,
    String.raw`\b(?:os|shutil)\.(?:remove|unlink|rename|replace|rmdir|removedirs|rmtree|move|copy|copy2|copyfile|copytree|mkdir|makedirs|symlink|chmod|make_archive|unpack_archive)\s*\(`,
    String.raw`\b(?:writeFile|writeFileSync|appendFile|appendFileSync|rmSync|rmdirSync|unlinkSync|renameSync|copyFileSync|cpSync|createWriteStream|truncateSync|mkdirSync|mkdtempSync|symlinkSync|linkSync|chmodSync)\s*\(`,
    String.raw`\bfs(?:\.promises)?\.(?:writeFile|appendFile|rm|rmdir|unlink|rename|copyFile|cp|truncate|mkdir|mkdtemp|symlink|link|chmod)\s*\(`,
    String.raw`\b(?:File\.(?:write|delete|rename)|Dir\.mkdir|FileUtils\.(?:rm|rm_r|rm_rf|rm_f|mv|cp|cp_r|touch|mkdir|mkdir_p))\b`,
    String.raw`\bFile\.open\s*\([^)]*,\s*['"][rb]*[wa+]`,
    String.raw`\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['"]\+?[>]`,
    String.raw`\b(?:unlink|rename|file_put_contents|mkdir)\s*\(`,
  ].join('|'),
)

// A string in code: quoted, on one line.
const QUOTED = /'([^'\n]*)'|"([^"\n]*)"|`([^`\n]*)`/g
// A string that may be a path: path letters only, a letter among them (`out.json`, `src/a.ts`, `VERSION`).
const PATH_STRING = /^(?=[^]*[A-Za-z])[\w.\/~@+-]+$/
// The mode Perl's two-argument `open` writes before the path (`>`, `>>`, `+<`).
const OPEN_MODE_PREFIX = /^\+?[<>]{1,2}\s*/
// A mode `open` is given (`'w'`, `'rb'`, `'a+'`): no file.
const OPEN_MODE = /^[rwabxtU+]{1,4}$/

/**
 * The strings inside the code an interpreter runs from the line (`-c`, `-e`, or its stdin: `python3 -
 * <<'PY'`) that may be paths, where that code calls something that writes: which of them it writes,
 * only running it would tell, so each may be written. None for code that writes nothing, a path
 * the code builds (`f'{d}/x'`), or a script in a file.
 */
function filesWrittenByCode(command: SimpleCommand): readonly string[] {
  let options: readonly string[] | undefined
  for (const [program, flags] of CODE_OPTIONS) if (program.test(command.program)) options = flags
  if (options === undefined) return NOTHING
  const code: string[] = []
  for (let i = 0; i < command.args.length - 1; i++) {
    const arg = command.args[i] as string
    if (options.includes(arg) || (/^-[a-zA-Z]+$/.test(arg) && options.some((flag) => flag.length === 2 && arg.endsWith(flag[1] as string)))) code.push(command.args[i + 1] as string)
  }
  // With no code option and no script file, it runs what the line feeds it.
  if (code.length === 0 && command.args.every((arg) => arg.startsWith('-'))) code.push(...(command.stdin ?? []))
  return code.flatMap(filesWrittenByCodeText)
}

/**
 * The strings in code that may be paths, where the code calls something that writes (see
 * `filesWrittenByCode`): also the code a harness's own tool runs (hermes' `execute_code`,
 * OpenHands' `execute_ipython_cell`).
 */
export function filesWrittenByCodeText(code: string): string[] {
  const written: string[] = []
  if (!WRITING_CALL.test(code)) return written
  for (const [, ...groups] of code.matchAll(QUOTED)) {
    // Perl's two-argument `open(F, ">out.txt")` gives the mode inside the path's string.
    const string = (groups.find((group) => group !== undefined) ?? '').replace(OPEN_MODE_PREFIX, '')
    if (PATH_STRING.test(string) && !OPEN_MODE.test(string) && !written.includes(string)) written.push(string)
  }
  return written
}

// ——— what a program is for: creating, converting or compiling into what it is given ———

/** `mkdir d`, `mkfifo p`: every operand, the folder or pipe it creates. */
const CREATES_OPERANDS = everyOperand({ valued: 'mZ', valuedLong: ['--mode', '--context'] })

// A mode `chmod` is given, symbolic (`+x`, `u=rw,go-w`, `-w`) or in octal.
const CHMOD_MODE = /^(?:[0-7]{1,4}|[ugoa]*[-+=][rwxXstugo]*(?:,[ugoa]*[-+=][rwxXstugo]*)*)$/

/**
 * `chmod +x f`, `chown me f`, `chgrp g f`: the files after the mode, owner or group (all of them
 * with `--reference=r`), and everything under each with `-R`. A mode change is one git records.
 */
function changesModes(args: readonly string[]): readonly string[] {
  // `chmod -w f`: a mode that starts like an option is the first operand.
  const at = args.findIndex((arg) => !arg.startsWith('-') || CHMOD_MODE.test(arg))
  const options = readArguments(args.slice(0, Math.max(at, 0)), { valuedLong: ['--from'] })
  const rest = at === -1 ? [] : args.slice(at)
  const referenced = valuesOf(options, '--reference').length > 0
  const files = rest.slice(referenced ? 0 : 1).filter((arg) => !arg.startsWith('-'))
  return withFolders(files, given(options, '-R', '--recursive'))
}

/** A template's trailing run of `X`s, which `mktemp` fills in: any file of that stem. */
const TEMPLATE_XS = /X{3,}$/

/** `mktemp [-p d] [template]`: the file it creates where it creates it; none in `$TMPDIR`. */
function mktempWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'p', valuedLong: ['--suffix'] })
  if (given(read, '-u', '--dry-run')) return NOTHING
  const template = read.operands[0]?.replace(TEMPLATE_XS, '*')
  const folder = valuesOf(read, '-p', '--tmpdir').at(-1)
  if (folder !== undefined) return [joinFolder(folder, template ?? 'tmp.*')]
  // No template, or `-t`/`--tmpdir` alone: in `$TMPDIR`, outside the session's folder.
  return template === undefined || given(read, '-t', '--tmpdir') ? NOTHING : [template]
}

/** `split in [prefix]` writes `prefixaa`, `prefixab`…; `csplit -f prefix in …` writes `prefix00`… */
function splitWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'abCflnt', valuedLong: ['--suffix-length', '--additional-suffix', '--bytes', '--line-bytes', '--lines', '--number', '--separator', '--filter'] })
  return [`${read.operands[1] ?? 'x'}*`]
}

function csplitWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'bfn', valuedLong: ['--suffix-format', '--prefix', '--digits'] })
  return [`${valuesOf(read, '-f', '--prefix').at(-1) ?? 'xx'}*`]
}

/** `rename 's/a/b/' f…` (or util-linux's `rename from to f…`): the files it renames, unless it only shows what it would do. */
function renameWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'e', valuedLong: [] })
  return given(read, '-n', '--no-act', '--dry-run') ? NOTHING : read.operands.slice(given(read, '-e') ? 0 : 1)
}

/** `script [file]` records the terminal into its file (`typescript` by default) and the logs its options name. */
function scriptWrites(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'cEOIBTm', valuedLong: ['--command', '--echo', '--log-out', '--log-in', '--log-io', '--log-timing', '--logging-format', '--output-limit'] })
  const logs = valuesOf(read, '-O', '--log-out', '-I', '--log-in', '-B', '--log-io', '-T', '--log-timing')
  const file = read.operands[0] ?? (logs.length > 0 ? undefined : 'typescript')
  return [...logs, ...(file === undefined ? [] : [file])].filter((word) => !word.startsWith('/dev/'))
}

/** The values of options named exactly so, or attached by `=` (`--output=x`); a short one also run together (`-ox`) where `attached`. */
export function optionValues(args: readonly string[], names: readonly string[], attached = false): string[] {
  const values: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') break
    for (const name of names) {
      if (arg === name && i + 1 < args.length) values.push(args[i + 1] as string)
      else if (name.startsWith('--') && arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1))
      else if (attached && !name.startsWith('--') && arg.startsWith(name) && arg.length > name.length) values.push(arg.slice(name.length))
    }
  }
  return values.filter((value) => value.length > 0 && value !== '-')
}

/** A program that writes the files its options name: `gcc -o a`, `pandoc -o x.pdf`, `openssl … -out k.pem`. */
function outputOptions(names: readonly string[], folders: readonly string[] = [], attached = false): Rule {
  return (args) => [...optionValues(args, names, attached), ...optionValues(args, folders).map(everythingUnder)]
}

/** `ssh-keygen -f k` writes `k` and `k.pub`, unless it only reads a key (`-l`, `-y`, `-B`, `-F`, `-L`). */
function sshKeygenWrites(args: readonly string[]): readonly string[] {
  if (args.some((arg) => /^-[a-zA-Z]*[lyBFL]/.test(arg))) return NOTHING
  return optionValues(args, ['-f']).flatMap((key) => [key, `${key}.pub`])
}

/** `pip install -t d`, `pip download -d d`, `pip wheel -w d`: under the folder it installs or saves into. */
function pipWrites(args: readonly string[]): readonly string[] {
  const [subcommand = '', ...rest] = args
  const folders = subcommand === 'install' ? ['-t', '--target', '--prefix', '--root'] : subcommand === 'download' ? ['-d', '--dest'] : subcommand === 'wheel' ? ['-w', '--wheel-dir'] : []
  return optionValues(rest, folders).map(everythingUnder)
}

/** `ffmpeg -i in out`, `magick in out`: the last operand is what it writes. */
function lastOperand(args: readonly string[]): readonly string[] {
  const last = args.at(-1)
  return last === undefined || last.startsWith('-') || args.length < 2 ? NOTHING : [last]
}

/** `sqlite3 db.sqlite 'delete …'`: the database it opens may be written, unless it is opened read-only. */
function sqliteWrites(args: readonly string[]): readonly string[] {
  if (args.includes('-readonly')) return NOTHING
  const database = args.find((arg) => !arg.startsWith('-'))
  return database === undefined || database === ':memory:' ? NOTHING : [database]
}

// Long options that name what a program writes, whatever the program (`esbuild --outfile=x`, `tsc
// --outDir d`, `cargo build --target-dir d`): a file, or a folder everything under which it may write.
const OUTPUT_FILE_OPTIONS = ['--output', '--out', '--outfile', '--outFile', '--out-file', '--output-file']
const OUTPUT_FOLDER_OPTIONS = ['--outdir', '--outDir', '--out-dir', '--output-dir', '--output-directory', '--output-path', '--target-dir', '--pack-destination', '--dest', '--destination']

/** A line naming any of those options, or a short `-o`/`-out` some programs write by: `filesWrittenBy` reads it. */
export const OUTPUT_OPTION_PATTERN = `(?:^|\\s)(?:${[...OUTPUT_FILE_OPTIONS, ...OUTPUT_FOLDER_OPTIONS].join('|')}|-o)`

// Programs whose rule above reads their output options itself (`curl --output-dir d -O url` is `d/<name>`).
const OWN_OUTPUTS: ReadonlySet<string> = new Set(['curl', 'wget', 'sort', 'patch', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'eslint', 'ruff', 'stylelint', 'rubocop', 'git', 'dart'])
// The interpreters a line runs code or a script with, as regex alternatives (`python3.12`, `pypy3`).
const INTERPRETER_NAMES = ['python[0-9.]*', 'pypy[0-9.]*', 'node', 'nodejs', 'bun', 'ruby', 'perl', 'php']
// Interpreters and shells: what follows the script they run is the script's to read.
const RUNS_SCRIPTS = new RegExp(`^(?:${[...INTERPRETER_NAMES, 'bash', 'sh', 'zsh', 'dash', 'ksh', 'fish'].join('|')})$`)

/** What any command's output options name (`OUTPUT_FILE_OPTIONS`, `OUTPUT_FOLDER_OPTIONS`), as written. */
function outputOptionsOf(args: readonly string[]): string[] {
  return [...optionValues(args, OUTPUT_FILE_OPTIONS), ...optionValues(args, OUTPUT_FOLDER_OPTIONS).map(everythingUnder)]
}

// ——— command-line clients that fetch into the tree ———

/** `gh pr checkout 42` switches the work tree (`./**`); `gh repo clone o/x [d]` writes `d`; `gh release download -D d` and `gh run download -D d` save into `d` (here without one). */
function ghWrites(args: readonly string[]): readonly string[] {
  const [group = '', action = '', ...rest] = args
  if (group === 'pr' && action === 'checkout') return [HERE]
  if (group === 'repo' && action === 'clone') {
    const [repository, folder] = readArguments(rest, { valued: 'u', valuedLong: ['--upstream-remote-name'] }).operands
    const named = folder ?? (repository === undefined ? undefined : cloneFolder(repository))
    return named === undefined ? NOTHING : [everythingUnder(named)]
  }
  if ((group === 'release' || group === 'run') && action === 'download') {
    const read = readArguments(rest, { valued: 'DpnRAO', valuedLong: ['--dir', '--pattern', '--name', '--repo', '--archive', '--output'] })
    if (valuesOf(read, '-O', '--output').length > 0) return valuesOf(read, '-O', '--output').filter((file) => file !== '-')
    const folder = valuesOf(read, '-D', '--dir').at(-1)
    return [folder === undefined ? '*' : everythingUnder(folder)]
  }
  return NOTHING
}

/** `aws s3 cp|mv|sync src dst`, `gsutil cp|mv|rsync src dst`: the destination where it is no bucket (`s3://`, `gs://`). */
function bucketCopyWrites(scheme: RegExp, subcommands: readonly string[]): Rule {
  return (args) => {
    // `aws [--profile p] s3 cp …`: past the service; `gsutil -m cp …`: past its own options.
    const service = args.indexOf('s3')
    const words = service === -1 ? args : args.slice(service + 1)
    const at = words.findIndex((word) => !word.startsWith('-'))
    const [action = '', ...rest] = at === -1 ? [] : words.slice(at)
    if (!subcommands.includes(action)) return NOTHING
    const operands = readArguments(rest, { valuedLong: ['--exclude', '--include', '--acl', '--profile', '--region', '--storage-class', '--endpoint-url', '--sse', '--content-type', '--cache-control', '--expires', '--metadata', '--grants'] }).operands
    const destination = operands.at(-1)
    if (operands.length < 2 || destination === undefined || scheme.test(destination)) return NOTHING
    const sources = action === 'mv' ? operands.slice(0, -1).filter((word) => !scheme.test(word)) : []
    return [...withFolders([destination], true), ...sources]
  }
}

// ——— the table ———

// Codex's patch tool, run as a program.
const APPLY_PATCH: ReadonlySet<string> = new Set(['apply_patch', 'applypatch'])

type Rule = (args: readonly string[]) => readonly string[]

const EDITOR = everyOperand({ valued: 'cSuiTwWst', attached: 'oOp', valuedLong: ['--cmd'] })

const WRITERS: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ['git', gitWrites],
  ['perl', scriptInPlace],
  ['ruby', scriptInPlace],
  ['awk', awkWrites],
  ['gawk', awkWrites],
  ['mawk', awkWrites],
  ['nawk', awkWrites],
  ['sed', sedWrites],
  ['xxd', xxdOutput],
  ['iconv', outputOptions(['-o'])],
  ['yq', yqInPlace],
  ['sd', sdInPlace],
  ['sort', sortOutput],
  ['uniq', uniqOutput],
  ['sponge', everyOperand()],
  ['dos2unix', everyOperand()],
  ['unix2dos', everyOperand()],
  ['vim', EDITOR],
  ['vi', EDITOR],
  ['nvim', EDITOR],
  ['nano', everyOperand({ valued: 'CoQrsTXY' })],
  ['emacs', everyOperand({ valuedLong: ['--eval', '--load', '--funcall'] })],
  ['ed', everyOperand({ valued: 'p' })],
  ['ex', EDITOR],
  ['curl', curlWrites],
  ['wget', wgetWrites],
  ['tar', tarWrites],
  ['unzip', unzipWrites],
  ['zip', zipWrites],
  ['bsdtar', tarWrites],
  ['7z', sevenZipWrites],
  ['7za', sevenZipWrites],
  ['7zz', sevenZipWrites],
  ['unrar', unrarWrites],
  ['unar', (args) => foldersOrHere([optionValues(args, ['-o']).at(-1)])],
  ['ar', arWrites],
  ['cpio', cpioWrites],
  ['gzip', compressorWrites('.gz', false)],
  ['gunzip', compressorWrites('.gz', true)],
  ['bzip2', compressorWrites('.bz2', false)],
  ['bunzip2', compressorWrites('.bz2', true)],
  ['xz', compressorWrites('.xz', false)],
  ['unxz', compressorWrites('.xz', true)],
  ['zstd', compressorWrites('.zst', false)],
  ['unzstd', compressorWrites('.zst', true)],
  ['patch', patchWrites],
  ['rsync', destinationWrites({ valued: 'efBT', valuedLong: ['--exclude', '--include', '--filter', '--rsh', '--chmod', '--bwlimit', '--exclude-from', '--include-from', '--files-from', '--backup-dir', '--suffix', '--temp-dir', '--compare-dest', '--link-dest', '--copy-dest', '--log-file', '--partial-dir', '--timeout', '--port', '--password-file'] }, (read) => given(read, '--remove-source-files'))],
  ['scp', destinationWrites({ valued: 'cFiJlLoOPS' })],
  ['docker', containerCopyWrites],
  ['podman', containerCopyWrites],
  ['kubectl', containerCopyWrites],
  ['prettier', rewriter({ valuedLong: PRETTIER_VALUED }, (read) => given(read, '--write', '-w'), false)],
  ['eslint', eslintWrites],
  ['black', rewriter({ valued: 'ltcW', valuedLong: BLACK_VALUED }, (read) => !given(read, '--check', '--diff', '-c', '--code'), false)],
  ['ruff', ruffWrites],
  ['isort', rewriter({ valuedLong: ['--settings-path', '--settings-file', '--profile', '--line-length', '--skip', '--skip-glob', '--filter-files', '--src', '--virtual-env', '--python-version'] }, (read) => !given(read, '--check-only', '-c', '--check', '--diff', '--stdout', '-d'), true)],
  ['autopep8', rewriter({ valuedLong: ['--select', '--ignore', '--max-line-length', '--aggressive', '--global-config'] }, (read) => given(read, '-i', '--in-place'), false)],
  ['yapf', rewriter({ valuedLong: ['--style', '--exclude', '--lines'] }, (read) => given(read, '-i', '--in-place'), false)],
  ['gofmt', rewriter({ valued: 'r' }, (read) => given(read, '-w'), false)],
  ['goimports', rewriter({ valuedLong: ['-local'] }, (read) => given(read, '-w'), false)],
  ['rustfmt', rewriter({ valuedLong: ['--edition', '--config-path', '--config', '--emit', '--color'] }, (read) => !given(read, '--check') && !valuesOf(read, '--emit').includes('stdout'), false)],
  ['clang-format', rewriter({ valuedLong: ['--style', '--assume-filename', '--lines', '--offset', '--length', '--fallback-style'] }, (read) => given(read, '-i'), false)],
  ['shfmt', rewriter({ valued: 'ilL', valuedLong: ['--indent', '--language-dialect', '--filename'] }, (read) => given(read, '-w', '--write'), false)],
  ['rubocop', rewriter({ valued: 'cfor', valuedLong: ['--config', '--format', '--out', '--require', '--only', '--except'] }, (read) => given(read, '-a', '-A', '--autocorrect', '--autocorrect-all', '--auto-correct', '--auto-correct-all', '-x', '--fix-layout'), true)],
  ['standard', rewriter({ valuedLong: ['--env', '--global', '--plugin', '--parser'] }, (read) => given(read, '--fix'), true)],
  ['gofumpt', rewriter({ valuedLong: ['-lang', '-modpath'] }, (read) => given(read, '-w'), false)],
  ['standardrb', rewriter({ valuedLong: ['--format', '--require'] }, (read) => given(read, '--fix'), true)],
  ['stylua', rewriter({ valuedLong: ['--config-path', '--glob', '--num-threads', '--verify', '--syntax', '--column-width', '--indent-type', '--indent-width', '--quote-style', '--call-parentheses'] }, (read) => !given(read, '--check', '-c'), false)],
  ['swift-format', afterSubcommand(['format'], rewriter({ valuedLong: ['--configuration', '--assume-filename'] }, (read) => given(read, '-i', '--in-place'), false), true)],
  ['php-cs-fixer', afterSubcommand(['fix'], rewriter({ valuedLong: ['--config', '--rules', '--format', '--path-mode', '--cache-file', '--using-cache', '--allow-risky'] }, (read) => !given(read, '--dry-run'), true))],
  ['taplo', afterSubcommand(['fmt', 'format'], rewriter({ valuedLong: ['--config', '--option', '--cache-path'] }, (read) => !given(read, '--check'), true))],
  ['terraform', terraformWrites],
  ['tofu', terraformWrites],
  ['stylelint', rewriter({ valuedLong: ['--config', '--ignore-path', '--custom-syntax', '--formatter', '--output-file'] }, (read) => given(read, '--fix'), false)],
  ['biome', biomeWrites],
  ['deno', denoWrites],
  ['go', goWrites],
  ['cargo', cargoWrites],
  ['gh', ghWrites],
  ['aws', bucketCopyWrites(/^s3:\/\//, ['cp', 'mv', 'sync'])],
  ['gsutil', bucketCopyWrites(/^gs:\/\//, ['cp', 'mv', 'rsync'])],
  ['mkdir', CREATES_OPERANDS],
  ['mkfifo', CREATES_OPERANDS],
  ['chmod', changesModes],
  ['chown', changesModes],
  ['chgrp', changesModes],
  ['mktemp', mktempWrites],
  ['split', splitWrites],
  ['csplit', csplitWrites],
  ['rename', renameWrites],
  ['prename', renameWrites],
  ['script', scriptWrites],
  // Every word no option is: a value (`-resize 50%`) is read as a file too, which names nothing a selector means.
  ['mogrify', everyOperand()],
  ['convert', lastOperand],
  ['magick', lastOperand],
  ['ffmpeg', lastOperand],
  ['sqlite3', sqliteWrites],
  // Scaffolders and project tools: a project from a template, or files in the one here.
  ['degit', scaffolder({}, 1)],
  ['tiged', scaffolder({}, 1)],
  ['cookiecutter', scaffolder({ valuedLong: ['--output-dir', '--config-file', '--checkout', '--directory', '--replay-file'] }, 1, ['-o', '--output-dir'])],
  ['django-admin', djangoWrites],
  ['rails', projectTool({ creates: ['new'], generates: ['generate', 'g', 'destroy', 'd'] })],
  ['ng', projectTool({ creates: ['new', 'n'], generates: ['generate', 'g', 'add'] })],
  ['nuxi', projectTool({ creates: ['init'] })],
  ['mix', projectTool({ creates: ['new'], formats: { format: (read) => !given(read, '--check-formatted', '--dry-run') } })],
  ['dart', dartWrites],
  ['flutter', projectTool({ creates: ['create'] })],
  ['dotnet', dotnetWrites],
  ['venv', environmentFolders({ valuedLong: ['--prompt'] })],
  ['virtualenv', environmentFolders({ valued: 'p', valuedLong: ['--python', '--prompt', '--activators', '--seeder', '--creator', '--extra-search-dir', '--app-data'] })],
  ['cmake', cmakeWrites],
  ['meson', mesonWrites],
  ['ninja', ninjaWrites],
  ['mvn', buildFolders(['target/**'])],
  ['mvnw', buildFolders(['target/**'])],
  ['gradle', buildFolders(['build/**', '.gradle/**'])],
  ['gradlew', buildFolders(['build/**', '.gradle/**'])],
  ['swift', buildFolders(['.build/**'], (args) => ['build', 'test', 'run'].includes(args[0] ?? ''))],
  ['shadcn', (args) => (['add', 'init'].includes(args[0] ?? '') ? [HERE] : NOTHING)],
  ['tailwindcss', (args) => (args[0] === 'init' ? ['tailwind.config.*', 'postcss.config.*'] : NOTHING)],
  ['tsc', (args) => (args.includes('--init') ? ['tsconfig.json'] : NOTHING)],
  ['ssh-keygen', sshKeygenWrites],
  ['pip', pipWrites],
  ['pip3', pipWrites],
  ['openssl', outputOptions(['-out', '-keyout'])],
  ['gpg', outputOptions(['-o'])],
  ['gpg2', outputOptions(['-o'])],
  ['pandoc', outputOptions(['-o'])],
  ['javac', outputOptions([], ['-d', '-s', '-h'])],
  ['rustc', outputOptions(['-o'])],
  ...['gcc', 'cc', 'c++', 'g++', 'clang', 'clang++', 'tcc'].map((name): [string, Rule] => [name, outputOptions(['-o'], [], true)]),
  ...[...PACKAGE_MANAGERS].map(([name, manager]): [string, Rule] => [name, packageManagerWrites(manager)]),
])

// An initializer package run by a package runner: `npx create-next-app`, `bunx create-vite`, `pnpm dlx create-t3-app`.
const SCAFFOLDER_NAME = 'create-[\\w.-]+'
const SCAFFOLDER_PACKAGE = new RegExp(`^${SCAFFOLDER_NAME}$`)
const SCAFFOLDS_INTO_ITS_WORDS = scaffolder({})

/** The names of the programs this table reads, interpreters included, as regex alternatives: a line naming none of them writes nothing it could say. */
export const WRITER_NAMES_PATTERN = [...[...WRITERS.keys()].map((name) => name.replace(/[+.]/g, '\\$&')), ...APPLY_PATCH, ...INTERPRETER_NAMES, SCAFFOLDER_NAME].join('|')

/**
 * The files one command of a program in the table writes, creates or removes, as written (a folder
 * it rewrites as everything under it: `./**` for where it works), and the paths in code an
 * interpreter runs that writes; none for any other command.
 */
export function filesWrittenByProgram(command: SimpleCommand): readonly string[] {
  // `apply_patch <<'EOF' … EOF` inside a longer line (Codex reads a line that is only that as its own call): the files its body names.
  if (APPLY_PATCH.has(command.program)) return filesInPatch([...command.args, ...(command.stdin ?? [])].join('\n'))
  const rule = WRITERS.get(command.program) ?? (SCAFFOLDER_PACKAGE.test(command.program) ? SCAFFOLDS_INTO_ITS_WORDS : undefined)
  // An interpreter's words after its script are the script's, which is not read.
  const outputs = OWN_OUTPUTS.has(command.program) || RUNS_SCRIPTS.test(command.program) ? NOTHING : outputOptionsOf(command.args)
  const written = [...(rule === undefined ? NOTHING : rule(command.args)), ...outputs, ...filesWrittenByCode(command)]
  return written.flatMap((file) => (file.length === 0 ? [] : THE_FOLDER_ITSELF.test(file) ? [HERE] : [file]))
}

// `.` given to a program that rewrites what it is given (`git checkout -- .`, `prettier --write .`): everything here.
const THE_FOLDER_ITSELF = /^\.\/*$/
