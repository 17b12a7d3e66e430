/**
 * A program's words read by a grammar: which options take a value, which words are operands, and
 * where a subcommand starts (`git -C src rm x`). Read alike by the rules for what a program
 * writes (`shell-writers.ts`) and for what git shows (`git-shows.ts`).
 */
import { EVERYTHING_HERE, everythingUnder, joinFolder } from './shell-folder.js'

/** Which options take a value: short letters (`-o out`, `-oout`), and long names without `=` (`--output out`). */
export interface OptionGrammar {
  readonly valued?: string
  /** Short letters whose value is only ever attached (`perl -i.bak`, `-0777`): the rest of the cluster. */
  readonly attached?: string
  readonly valuedLong?: readonly string[]
}

/** A command's words read by a grammar: the options given (`-o`, `--output`) with their values, and the operands in order. */
export interface ReadArguments {
  readonly options: ReadonlyMap<string, readonly string[]>
  readonly operands: readonly string[]
}

export function readArguments(args: readonly string[], grammar: OptionGrammar = {}): ReadArguments {
  const options = new Map<string, string[]>()
  const operands: string[] = []
  const give = (name: string, value?: string): void => {
    const values = options.get(name) ?? []
    if (value !== undefined) values.push(value)
    options.set(name, values)
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') {
      operands.push(...args.slice(i + 1))
      break
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=')
      if (equals !== -1) give(arg.slice(0, equals), arg.slice(equals + 1))
      else if (grammar.valuedLong?.includes(arg) === true && i + 1 < args.length) give(arg, args[++i])
      else give(arg)
      continue
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let c = 1; c < arg.length; c++) {
        const letter = arg[c] as string
        const rest = arg.slice(c + 1)
        if (grammar.attached?.includes(letter) === true) {
          give(`-${letter}`, rest.length > 0 ? rest : undefined)
          break
        }
        if (grammar.valued?.includes(letter) === true) {
          give(`-${letter}`, rest.length > 0 ? rest : args[++i])
          break
        }
        give(`-${letter}`)
      }
      continue
    }
    operands.push(arg)
  }
  return { options, operands }
}

export const given = (read: ReadArguments, ...names: string[]): boolean => names.some((name) => read.options.has(name))
export const valuesOf = (read: ReadArguments, ...names: string[]): string[] => names.flatMap((name) => read.options.get(name) ?? [])

/** A program's words after its own options, read as a subcommand and its words (`git -C src rm x`: `rm`, `[x]`, in `src`). */
export function subcommandOf(args: readonly string[], globalValued: readonly string[]): { name: string; args: readonly string[]; folder: string } {
  let folder = ''
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (!arg.startsWith('-')) return { name: arg, args: args.slice(i + 1), folder }
    if (globalValued.includes(arg)) {
      const value = args[++i]
      if ((arg === '-C' || arg === '--prefix' || arg === '--dir' || arg === '--cwd' || arg === '--directory') && value !== undefined) folder = joinFolder(folder, value)
    }
  }
  return { name: '', args: [], folder }
}

// git's own options that take a value, before its subcommand (`git -C src`, `git -c a=b`).
export const GIT_GLOBAL_VALUED = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']

/** The files a rule names, each inside the folder the program was told to work in (`git -C src`, `npm --prefix web`). */
export function inFolder(folder: string, files: readonly string[]): string[] {
  return folder === '' ? [...files] : files.map((file) => (file === EVERYTHING_HERE ? everythingUnder(folder) : joinFolder(folder, file)))
}

/** The words after a `--`, undefined where there is none. */
export function afterDoubleDash(args: readonly string[]): readonly string[] | undefined {
  const dashes = args.indexOf('--')
  return dashes === -1 ? undefined : args.slice(dashes + 1)
}
