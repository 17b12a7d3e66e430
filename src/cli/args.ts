/** One option of a command, declared once: the parser and `--help` both read it. */
export interface OptionSpec {
  readonly name: string
  /** `string` takes a value, `boolean` does not; `repeatable` collects every occurrence. */
  readonly type: 'string' | 'boolean'
  readonly repeatable?: boolean
  /** The values allowed, when the set is closed. */
  readonly choices?: readonly string[]
  readonly valueName?: string
  readonly description: string
}

export interface ParsedArgs {
  readonly options: Record<string, string | boolean | string[] | undefined>
  readonly positionals: string[]
}

/** A command line that does not fit the command's table: exit 2, with the sentence on stderr. */
export class UsageError extends Error {
  readonly code = 'VH_USAGE'

  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = 3
  for (const candidate of candidates) {
    const distance = levenshtein(word, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = current
    }
  }
  return row[b.length] as number
}

/** Parses `argv` against a declared option table; `--` ends options, `-` is a positional (stdin). */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]))
  const options: Record<string, string | boolean | string[] | undefined> = {}
  const positionals: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string
    if (word === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    if (!word.startsWith('--') || word === '-') {
      positionals.push(word)
      continue
    }
    const equals = word.indexOf('=')
    const name = equals === -1 ? word.slice(2) : word.slice(2, equals)
    const spec = byName.get(name)
    if (!spec) {
      const hint = closest(name, specs.map((candidate) => candidate.name))
      throw new UsageError(`unknown option --${name}${hint ? `; did you mean --${hint}?` : ''}`)
    }
    if (spec.type === 'boolean') {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`)
      options[name] = true
      continue
    }
    let value: string | undefined
    if (equals !== -1) value = word.slice(equals + 1)
    else {
      value = argv[i + 1]
      i += 1
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value${spec.valueName ? ` (${spec.valueName})` : ''}`)
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`--${name} must be one of ${spec.choices.join(', ')}; got ${JSON.stringify(value)}`)
    }
    if (spec.repeatable) {
      const list = (options[name] as string[] | undefined) ?? []
      list.push(value)
      options[name] = list
    } else {
      if (options[name] !== undefined) throw new UsageError(`--${name} was given twice`)
      options[name] = value
    }
  }
  return { options, positionals }
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options[name]
  return typeof value === 'string' ? value : undefined
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.options[name]
  return Array.isArray(value) ? value : []
}

export function flagOption(args: ParsedArgs, name: string): boolean {
  return args.options[name] === true
}
