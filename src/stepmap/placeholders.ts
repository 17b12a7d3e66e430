/**
 * The names a `{placeholder}` in a command step's `run` words or `evidence.record` may have: things
 * only the run knows — its directory, the task document it drives (absolute), and the transcript of
 * the `llm` step this one follows in the same state.
 */
export const PLACEHOLDERS = ['run_directory', 'task', 'transcript'] as const

export type PlaceholderName = (typeof PLACEHOLDERS)[number]

/**
 * Every `{name}` in `word`, in order. Only `{` + one or more of `a-z` and `_` + `}` is a
 * placeholder, so `find -exec`'s `{}` and a jq program's `{a: .b}` stay ordinary text.
 */
export function placeholdersIn(word: string): string[] {
  const found: string[] = []
  let rest = word
  for (;;) {
    const open = rest.indexOf('{')
    if (open === -1) break
    const after = rest.slice(open + 1)
    const close = after.indexOf('}')
    if (close === -1) break
    const name = after.slice(0, close)
    if (/^[a-z_]+$/.test(name)) found.push(name)
    rest = after.slice(close + 1)
  }
  return found
}

/** Values for the placeholders; one left `undefined` is a fact the run does not have. */
export type PlaceholderValues = Partial<Record<PlaceholderName, string>>

/**
 * Expands every placeholder in `word`, or says which one the run cannot fill (a `{transcript}`
 * before any llm step of the state ran, a `{task}` in a run started from no task document).
 */
export function expandPlaceholders(word: string, values: PlaceholderValues): { text: string } | { problem: string } {
  let text = word
  for (const name of placeholdersIn(word)) {
    const value = (values as Record<string, string | undefined>)[name]
    if (value === undefined) {
      const why: Record<string, string> = {
        transcript: '`{transcript}` is the transcript of the llm step this one follows, and no llm step of this state has run',
        task: '`{task}` is the task document the run drives, and this run names none (pass `task`)',
        run_directory: '`{run_directory}` is the run directory, and this run has none',
      }
      return { problem: why[name] ?? `nothing expands \`{${name}}\`` }
    }
    text = text.replaceAll(`{${name}}`, value)
  }
  return { text }
}
