/**
 * Programs that run another program named in their arguments — `sudo rm`, `env X=1 node`,
 * `timeout 10 pytest`, `xargs grep`, `find -exec rm`, `npx vitest` — and where in their
 * arguments that program starts. The wrapper is a program of its own (`sudo` is worth a
 * subject); the program it runs is one too, or "no `rm`" would hold over `sudo rm -rf`.
 */

/** A wrapper's options that take the next word as their value; any other option stands alone. */
interface Wrapper {
  readonly values: readonly string[]
  /** Words after the options and before the program (`timeout`'s duration). */
  readonly leading?: number
  /** Words of the form `NAME=value` before the program set its environment (`env`). */
  readonly assignments?: boolean
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: { values: ['-u', '-g', '-h', '-p', '-C', '-D', '-R', '-T', '-r', '-t', '-U', '--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--chroot', '--command-timeout', '--role', '--type', '--other-user'] },
  doas: { values: ['-u', '-C'] },
  env: { values: ['-u', '-C', '--unset', '--chdir'], assignments: true },
  nice: { values: ['-n', '--adjustment'] },
  ionice: { values: ['-c', '-n', '--class', '--classdata'] },
  nohup: { values: [] },
  setsid: { values: [] },
  stdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  timeout: { values: ['-s', '-k', '--signal', '--kill-after'], leading: 1 },
  time: { values: ['-f', '-o', '--format', '--output'] },
  command: { values: [] },
  builtin: { values: [] },
  exec: { values: ['-a'] },
  unbuffer: { values: [] },
  caffeinate: { values: ['-t', '-w'] },
  // Package runners: the package's program is what runs.
  npx: { values: ['-p', '--package', '--cache', '--registry'] },
  pnpx: { values: ['-p', '--package'] },
  bunx: { values: ['-p', '--package'] },
  uvx: { values: ['--from', '--with', '--with-editable', '--with-requirements', '-p', '--python', '--index', '--default-index', '-i', '--index-url'] },
}

/** `uv run`, `poetry run`…: a package manager's subcommand that runs the program after it. */
const RUNNER_SUBCOMMANDS: Readonly<Record<string, Readonly<Record<string, Wrapper>>>> = {
  uv: { run: { values: ['--with', '--with-editable', '--with-requirements', '-p', '--python', '--project', '--directory', '--package', '--extra', '--group', '--env-file', '--index', '--default-index', '-i', '--index-url'] } },
  poetry: { run: { values: ['-C', '--directory', '-P', '--project'] } },
  pipenv: { run: { values: [] } },
  pdm: { run: { values: ['-p', '--project'] } },
  pnpm: { exec: { values: ['-C', '--dir', '-F', '--filter'] }, dlx: { values: ['--package'] } },
  yarn: { dlx: { values: ['-p', '--package'] } },
  npm: { exec: { values: ['-p', '--package', '-w', '--workspace'] } },
  bundle: { exec: { values: [] } },
  conda: { run: { values: ['-n', '--name', '-p', '--prefix', '--cwd'] } },
  mamba: { run: { values: ['-n', '--name', '-p', '--prefix', '--cwd'] } },
}

// A package runner may name a version (`vitest@3`, `@biomejs/biome@1.9`, `ruff==0.6`): the program is the package's own name.
const PACKAGE_VERSION = /(?<=.)[@=<>~!].*$/
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx'])

/** Where the program a wrapper runs starts in its arguments, past options, values and leading words. */
function programIndex(args: readonly string[], wrapper: Wrapper): number {
  let i = 0
  while (i < args.length) {
    const arg = args[i] as string
    if (arg === '--') return i + 1
    if (!arg.startsWith('-') || arg === '-') break
    i += wrapper.values.includes(arg) ? 2 : 1
  }
  if (wrapper.assignments) while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i] as string)) i++
  return i + (wrapper.leading ?? 0)
}

function packageProgram(words: string[]): string[] {
  const [name, ...rest] = words
  if (name === undefined) return words
  const unversioned = name.replace(PACKAGE_VERSION, '')
  return [unversioned.slice(unversioned.lastIndexOf('/') + 1), ...rest]
}

// Every program this file knows to run another: most programs are none of them.
const WRAPPING = new Set(['find', 'xargs', 'watch', ...Object.keys(WRAPPERS), ...Object.keys(RUNNER_SUBCOMMANDS)])
const WRAPS_NOTHING: readonly (string[] | string)[] = []

/** `find … -exec prog args {} ;` (and `-execdir`, `-ok`, `-okdir`): each program it runs. */
function findCommands(args: readonly string[]): string[][] {
  const commands: string[][] = []
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i] as string)) continue
    const words: string[] = []
    for (i++; i < args.length && args[i] !== ';' && args[i] !== '+'; i++) words.push(args[i] as string)
    commands.push(words)
  }
  return commands
}

/** `xargs [options] [program args…]`: the program, or `echo` when none is named. */
function xargsCommand(args: readonly string[]): string[] {
  let i = 0
  while (i < args.length) {
    const arg = args[i] as string
    if (arg === '--') {
      i++
      break
    }
    if (!arg.startsWith('-')) break
    // Attached values (`-n1`, `-I{}`, `--max-args=2`) stand alone; a bare value option takes the next word.
    i += /^-(?:[aEdIiLlnPs]|-(?:arg-file|eof|delimiter|replace|max-lines|max-args|max-procs|max-chars|process-slot-var))$/.test(arg) ? 2 : 1
  }
  return i < args.length ? args.slice(i) : ['echo']
}

/** `watch [options] command`: its words joined and run by `sh -c`, or run as they are with `-x`. */
function watchCommand(args: readonly string[]): string[] | string {
  let i = 0
  let exec = false
  while (i < args.length && (args[i] as string).startsWith('-')) {
    const arg = args[i] as string
    if (arg === '-x' || arg === '--exec') exec = true
    i += /^-(?:n|-interval|q|-equexit)$/.test(arg) ? 2 : 1
  }
  const words = args.slice(i)
  return exec ? words : words.join(' ')
}

/**
 * The programs a wrapper runs: each as its words (`["rm", "-rf", "x"]`), or as a script for a
 * shell to read (`env -S '…'`, `watch '…'`, `npx -c '…'`). None for a program that wraps nothing.
 */
export function wrappedCommands(program: string, args: readonly string[]): readonly (string[] | string)[] {
  if (!WRAPPING.has(program)) return WRAPS_NOTHING
  if (program === 'find') return findCommands(args)
  if (program === 'xargs') return [xargsCommand(args)]
  if (program === 'watch') return [watchCommand(args)]
  if ((program === 'env' && (args[0] === '-S' || args[0] === '--split-string')) || (PACKAGE_RUNNERS.has(program) && args[0] === '-c')) {
    return args[1] === undefined ? [] : [args[1]]
  }
  const subcommand = Object.hasOwn(RUNNER_SUBCOMMANDS, program) ? RUNNER_SUBCOMMANDS[program] : undefined
  const runner = subcommand && args[0] !== undefined && Object.hasOwn(subcommand, args[0]) ? subcommand[args[0]] : undefined
  if (runner) return [packageProgram(args.slice(1 + programIndex(args.slice(1), runner)))]
  const wrapper = Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined
  if (!wrapper) return []
  const words = args.slice(programIndex(args, wrapper))
  return [PACKAGE_RUNNERS.has(program) ? packageProgram(words) : words]
}
