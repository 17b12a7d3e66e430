/**
 * Programs that run another program named in their arguments — `sudo rm`, `env X=1 node`,
 * `timeout 10 pytest`, `xargs grep`, `find -exec rm`, `npx vitest`, `python -m pytest`,
 * `ssh host rm`, `trap 'rm x' EXIT` — and where in their arguments that program starts. The
 * wrapper is a program of its own (`sudo` is worth a subject); the program it runs is one too,
 * or "no `rm`" would hold over `sudo rm -rf`.
 */
import { optionValues } from './shell-writers.js'

/** A wrapper's options that take the next word as their value; any other option stands alone. */
interface Wrapper {
  readonly values: readonly string[]
  /** Words after the options and before the program (`timeout`'s duration). */
  readonly leading?: number
  /** Words of the form `NAME=value` before the program set its environment (`env`). */
  readonly assignments?: boolean
  /** Options whose value is a script for a shell (`su -c 'rm x'`); the wrapper then runs only that. */
  readonly scripts?: readonly string[]
  /** It runs nothing but a script option's (`su`, `script`): its other words start a shell on the terminal. */
  readonly onlyScripts?: boolean
  /** The program starts only after a `--` (`kubectl exec pod -- rm x`); without one it runs none. */
  readonly afterDoubleDash?: boolean
  /** Options whose value is the folder the program runs in (`env -C d`, `sudo --chdir=d`). */
  readonly folders?: readonly string[]
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: { values: ['-u', '-g', '-h', '-p', '-C', '-D', '-R', '-T', '-r', '-t', '-U', '--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--chroot', '--command-timeout', '--role', '--type', '--other-user'], folders: ['-D', '--chdir'] },
  doas: { values: ['-u', '-C'] },
  env: { values: ['-u', '-C', '--unset', '--chdir'], assignments: true, folders: ['-C', '--chdir'] },
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
  chronic: { values: [] },
  setpriv: { values: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile'] },
  taskset: { values: [], leading: 1 },
  chrt: { values: [], leading: 1 },
  flock: { values: ['-w', '--timeout', '-E', '--conflict-exit-code'], leading: 1, scripts: ['-c', '--command'] },
  su: { values: [], scripts: ['-c', '--command', '--session-command'], onlyScripts: true },
  runuser: { values: [], scripts: ['-c', '--command', '--session-command'], afterDoubleDash: true },
  script: { values: [], scripts: ['-c', '--command'], onlyScripts: true },
  chroot: { values: ['--userspec', '--groups'], leading: 1 },
  unshare: { values: ['-S', '--setuid', '-G', '--setgid', '-R', '--root', '-w', '--wd', '--propagation', '--setgroups'] },
  nsenter: { values: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd'] },
  firejail: { values: [] },
  'systemd-run': { values: ['-u', '--unit', '-p', '--property', '-E', '--setenv', '--uid', '--gid', '-M', '--machine', '-H', '--host', '--description', '--slice', '--working-directory', '--nice', '--on-active', '--on-calendar'] },
  'dbus-run-session': { values: ['--config-file', '--dbus-daemon'] },
  'xvfb-run': { values: ['-n', '--server-num', '-s', '--server-args', '-f', '--auth-file', '-e', '--error-file', '-p', '--xauth-protocol', '-w', '--wait'] },
  strace: { values: ['-e', '-o', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-S', '-X', '-P'] },
  ltrace: { values: ['-e', '-o', '-p', '-s', '-u', '-a', '-n', '-l', '-A', '-D'] },
  valgrind: { values: [] },
  busybox: { values: [] },
  coproc: { values: [] },
  // zsh's precommand modifiers.
  nocorrect: { values: [] },
  noglob: { values: [] },
  // Package runners: the package's program is what runs.
  npx: { values: ['-p', '--package', '--cache', '--registry'] },
  pnpx: { values: ['-p', '--package'] },
  bunx: { values: ['-p', '--package'] },
  uvx: { values: ['--from', '--with', '--with-editable', '--with-requirements', '-p', '--python', '--index', '--default-index', '-i', '--index-url'] },
}

// `docker exec [options] CONTAINER cmd…` and `docker run [options] IMAGE cmd…`: the options that take a value.
const CONTAINER_EXEC: Wrapper = { values: ['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys'], leading: 1 }
const CONTAINER_RUN: Wrapper = {
  values: [
    '-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '-v', '--volume', '-p', '--publish', '--name', '--network', '--net', '--entrypoint', '--mount',
    '--platform', '-l', '--label', '--cpus', '-m', '--memory', '--gpus', '--add-host', '-h', '--hostname', '--device', '--cap-add', '--cap-drop', '--security-opt',
    '--ulimit', '--tmpfs', '--restart', '--pull', '--log-driver', '--shm-size', '--ipc', '--pid', '--userns', '--cidfile', '--dns', '--expose', '--group-add', '--runtime',
  ],
  leading: 1,
}

/** `uv run`, `poetry run`…: a package manager's subcommand that runs the program after it. */
const RUNNER_SUBCOMMANDS: Readonly<Record<string, Readonly<Record<string, Wrapper>>>> = {
  uv: { run: { values: ['--with', '--with-editable', '--with-requirements', '-p', '--python', '--project', '--directory', '--package', '--extra', '--group', '--env-file', '--index', '--default-index', '-i', '--index-url'] } },
  poetry: { run: { values: ['-C', '--directory', '-P', '--project'] } },
  pipenv: { run: { values: [] } },
  pdm: { run: { values: ['-p', '--project'] } },
  pnpm: { exec: { values: ['-C', '--dir', '-F', '--filter'] }, dlx: { values: ['--package'] } },
  // A container's or a pod's program runs too: "no `rm`" means in it as well.
  docker: { exec: CONTAINER_EXEC, run: CONTAINER_RUN },
  podman: { exec: CONTAINER_EXEC, run: CONTAINER_RUN },
  kubectl: { exec: { values: ['-c', '--container', '-n', '--namespace', '--context', '--kubeconfig', '-f', '--filename'], afterDoubleDash: true } },
  yarn: { dlx: { values: ['-p', '--package'] } },
  npm: { exec: { values: ['-p', '--package', '-w', '--workspace'] } },
  bundle: { exec: { values: [] } },
  conda: { run: { values: ['-n', '--name', '-p', '--prefix', '--cwd'] } },
  mamba: { run: { values: ['-n', '--name', '-p', '--prefix', '--cwd'] } },
}

// A package runner may name a version (`vitest@3`, `@biomejs/biome@1.9`, `ruff==0.6`): the program is the package's own name.
const PACKAGE_VERSION = /(?<=.)[@=<>~!].*$/
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx'])
// Their subcommands run a container's program, named as it is, not a package.
const CONTAINER_RUNNERS = new Set(['docker', 'podman', 'kubectl'])

/**
 * Where a program's options end: at its first word that is no option (`-` alone is one), or after
 * a `--`. An option `takesValue` names takes the next word as its value.
 */
function pastOptions(args: readonly string[], takesValue: (option: string) => boolean): number {
  let i = 0
  while (i < args.length) {
    const arg = args[i] as string
    if (arg === '--') return i + 1
    if (!arg.startsWith('-') || arg === '-') return i
    i += takesValue(arg) ? 2 : 1
  }
  return i
}

/** Where the program a wrapper runs starts in its arguments, past options, values and leading words. */
function programIndex(args: readonly string[], wrapper: Wrapper): number {
  let i = pastOptions(args, (option) => wrapper.values.includes(option))
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
const WRAPS_NOTHING: readonly (string[] | string)[] = []

/** A command that may be none, as the list `wrappedCommands` answers. */
const listed = (command: string[] | string | undefined): readonly (string[] | string)[] => (command === undefined ? WRAPS_NOTHING : [command])

// Programs whose arguments say what they run by a rule of their own, not a wrapper's options.
const OWN_RULES: Readonly<Record<string, (args: readonly string[]) => readonly (string[] | string)[]>> = {
  find: findCommands,
  fd: fdCommands,
  fdfind: fdCommands,
  xargs: (args) => [xargsCommand(args)],
  watch: (args) => [watchCommand(args)],
  trap: (args) => listed(trapHandler(args)),
  ssh: (args) => listed(sshCommand(args)),
  parallel: (args) => listed(parallelCommand(args)),
}

const WRAPPING = new Set([...Object.keys(OWN_RULES), ...Object.keys(WRAPPERS), ...Object.keys(RUNNER_SUBCOMMANDS)])

// Of those, the ones that keep their stdin for themselves (arguments, a terminal) or run their program later.
const STDIN_KEPT = new Set(['xargs', 'parallel', 'watch', 'trap', 'find', 'fd', 'fdfind'])

/** Whether the program a wrapper runs reads the wrapper's stdin (`curl … | sudo sh`); not `xargs`'s, which reads it as arguments. */
export function handsStdinOn(wrapper: string): boolean {
  return !STDIN_KEPT.has(wrapper)
}

/** `fd … -x prog args` (and `--exec`, `-X`, `--exec-batch`): the program it runs on what it finds, its words up to a `;` or the end. */
function fdCommands(args: readonly string[]): string[][] {
  const commands: string[][] = []
  for (let i = 0; i < args.length; i++) {
    if (!/^(?:-x|--exec|-X|--exec-batch)$/.test(args[i] as string)) continue
    const words: string[] = []
    for (i++; i < args.length && args[i] !== ';'; i++) words.push(args[i] as string)
    if (words.length > 0) commands.push(words)
  }
  return commands
}

/** `find … -exec prog args {} ;` (and `-execdir`, `-ok`, `-okdir`): each program it runs. */
export function findCommands(args: readonly string[]): string[][] {
  const commands: string[][] = []
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i] as string)) continue
    const words: string[] = []
    for (i++; i < args.length && args[i] !== ';' && args[i] !== '+'; i++) words.push(args[i] as string)
    commands.push(words)
  }
  return commands
}

/**
 * The words `xargs` reads from its input and gives its program: no reader of the line knows them,
 * so they stand as one substitution (`xargs rm < list`: `rm $(stdin)`).
 */
const XARGS_INPUT = '$(stdin)'

/** `xargs [options] [program args…]`: the program, or `echo` when none is named, given the words it read. */
function xargsCommand(args: readonly string[]): string[] {
  // Attached values (`-n1`, `-I{}`, `--max-args=2`) stand alone; a bare value option takes the next word.
  const i = pastOptions(args, (option) => /^-(?:[aEdIiLlnPs]|-(?:arg-file|eof|delimiter|replace|max-lines|max-args|max-procs|max-chars|process-slot-var))$/.test(option))
  return i < args.length ? [...args.slice(i), XARGS_INPUT] : ['echo', XARGS_INPUT]
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
 * A script option's value (`-c 'rm x'`, `--command='rm x'`) among a wrapper's words before `--`;
 * a short one may end a run of flags (`su -lc 'rm x'`, `script -qc 'rm x'`).
 */
function scriptOption(args: readonly string[], options: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') return undefined
    if (options.includes(arg)) return args[i + 1]
    if (/^-[a-zA-Z]+$/.test(arg) && options.some((option) => option.length === 2 && option !== arg && arg.endsWith(option.slice(1)))) return args[i + 1]
    const equals = arg.indexOf('=')
    if (equals > 2 && arg.startsWith('--') && options.includes(arg.slice(0, equals))) return arg.slice(equals + 1)
  }
  return undefined
}

/** What one wrapper runs: its script option's script, else the words past its options. */
function wrapperCommand(args: readonly string[], wrapper: Wrapper, packages: boolean): string[] | string | undefined {
  const script = wrapper.scripts ? scriptOption(args, wrapper.scripts) : undefined
  if (script !== undefined) return script
  if (wrapper.onlyScripts) return undefined
  if (wrapper.afterDoubleDash) {
    const dashes = args.indexOf('--')
    return dashes === -1 ? undefined : args.slice(dashes + 1)
  }
  const words = args.slice(programIndex(args, wrapper))
  return packages ? packageProgram(words) : words
}

// `python -m pytest` runs pytest: the module is the program (`python3.12`, `pypy3` alike).
const PYTHON_NAME = /^(?:python|pypy)[0-9.]*$/
// CPython's options that take the next word as their value.
const PYTHON_VALUES = new Set(['-X', '-W', '--check-hash-based-pycs'])

/** `python [options] -m module args…`: the module and its arguments; none for a script, `-c` or the terminal. */
function pythonModule(args: readonly string[]): string[] | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '-m') return args[i + 1] === undefined ? undefined : args.slice(i + 1)
    // `-mpytest`, `-um pytest`: short flags run together, the module attached or next.
    if (/^-[bBdEhiIOPqsSuvx]*m/.test(arg)) {
      const attached = arg.slice(arg.indexOf('m') + 1)
      return attached.length > 0 ? [attached, ...args.slice(i + 1)] : args[i + 1] === undefined ? undefined : args.slice(i + 1)
    }
    if (arg === '-c' || arg === '--' || !arg.startsWith('-') || arg === '-') return undefined
    if (PYTHON_VALUES.has(arg)) i++
  }
  return undefined
}

/** `trap 'rm -f tmp' EXIT`: the handler, a script the shell runs later; none for `trap -`, `trap ''`, `trap -p`. */
function trapHandler(args: readonly string[]): string | undefined {
  let i = 0
  if (args[i] === '--') i++
  const handler = args[i]
  if (handler === undefined || handler === '-' || handler.length === 0 || args[i + 1] === undefined) return undefined
  return handler.startsWith('-') ? undefined : handler
}

// ssh's options that take the next word as their value.
const SSH_VALUES = new Set(['-B', '-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w'])

/** `ssh [options] host command…`: the remote command's words, joined for the remote shell to read. */
function sshCommand(args: readonly string[]): string | undefined {
  const command = args.slice(pastOptions(args, (option) => SSH_VALUES.has(option)) + 1)
  return command.length === 0 ? undefined : command.join(' ')
}

// GNU parallel's options that take the next word as their value.
const PARALLEL_VALUES = new Set(['-j', '--jobs', '-P', '--max-procs', '-a', '--arg-file', '-S', '--sshlogin', '-d', '--delimiter', '-n', '--max-args', '-I', '--joblog', '--results', '--timeout', '--delay', '--tmpdir', '--tag-string'])

/** `parallel [options] command ::: args`: the command, a script its shell reads for each argument. */
function parallelCommand(args: readonly string[]): string | undefined {
  const i = pastOptions(args, (option) => PARALLEL_VALUES.has(option))
  const end = args.findIndex((arg, index) => index >= i && /^::::?\+?$/.test(arg))
  const command = args.slice(i, end === -1 ? undefined : end)
  return command.length === 0 ? undefined : command.join(' ')
}

/** A runner subcommand's own words, before the program it runs (`uv run --frozen pytest -q`: `['--frozen']`); undefined where none runs. */
export function runnerOwnWords(program: string, args: readonly string[]): readonly string[] | undefined {
  const subcommand = Object.hasOwn(RUNNER_SUBCOMMANDS, program) ? RUNNER_SUBCOMMANDS[program] : undefined
  const runner = subcommand && args[0] !== undefined && Object.hasOwn(subcommand, args[0]) ? subcommand[args[0]] : undefined
  return runner === undefined ? undefined : args.slice(1, 1 + programIndex(args.slice(1), runner))
}

/**
 * The programs a wrapper runs: each as its words (`["rm", "-rf", "x"]`), or as a script for a
 * shell to read (`env -S '…'`, `watch '…'`, `npx -c '…'`). None for a program that wraps nothing.
 */
export function wrappedCommands(program: string, args: readonly string[]): readonly (string[] | string)[] {
  // Most programs are no wrapper: the set answers them, the pattern only names that start like Python's.
  if (!WRAPPING.has(program)) return program.startsWith('py') && PYTHON_NAME.test(program) ? listed(pythonModule(args)) : WRAPS_NOTHING
  const own = Object.hasOwn(OWN_RULES, program) ? OWN_RULES[program] : undefined
  if (own) return own(args)
  if (program === 'command' && (args[0] === '-v' || args[0] === '-V')) return WRAPS_NOTHING
  if ((program === 'env' && (args[0] === '-S' || args[0] === '--split-string')) || (PACKAGE_RUNNERS.has(program) && args[0] === '-c')) {
    return listed(args[1])
  }
  const subcommand = Object.hasOwn(RUNNER_SUBCOMMANDS, program) ? RUNNER_SUBCOMMANDS[program] : undefined
  const runner = subcommand && args[0] !== undefined && Object.hasOwn(subcommand, args[0]) ? subcommand[args[0]] : undefined
  const wrapper = runner ?? (Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined)
  if (!wrapper) return WRAPS_NOTHING
  const command = runner ? wrapperCommand(args.slice(1), runner, !CONTAINER_RUNNERS.has(program)) : wrapperCommand(args, wrapper, PACKAGE_RUNNERS.has(program))
  if (Array.isArray(command) && !runner) {
    // `env -C .engineering rm notes.md` removes `.engineering/notes.md`: the program runs as after a `cd` there.
    // The last folder its own words name (`-C d`, `-Cd`, `--chdir d`, `--chdir=d`).
    const folder = optionValues(args.slice(0, programIndex(args, wrapper)), wrapper.folders ?? [], true).at(-1)
    if (folder !== undefined) return [['cd', folder], command]
  }
  return listed(command)
}
