/**
 * Whether a shell glob a command was given (`rm -rf .*`, `cat .store/*.md`) could name a path a
 * subject matcher would match: the shell expands the word, so the path is none of its letters as
 * written, only one of the paths it may expand to. Decided by walking both patterns at once over
 * every string they could both match (their product automaton); both are short, so the walk is
 * a few hundred steps at most.
 */

/**
 * One position of a pattern: a literal character, one character, or a run of characters. Which
 * characters `one` and `run` take is their side's: any for a matcher, a name's for a shell glob.
 */
export type Token = { readonly kind: 'char'; readonly char: string } | { readonly kind: 'one' | 'run' }

/** Whether a shell would expand a word as a glob: it holds `*`, `?` or a bracket. */
export function isShellGlob(word: string): boolean {
  return /[*?[]/.test(word)
}

/**
 * A shell glob's tokens: `*` a run of a name's letters, `?` and a bracket class one character (a
 * class is read as any: over-reading only ever says "could match"). None crosses a `/`, nor takes a
 * segment's leading `.` (bash's default: `*` is not `.store`, `.*` is). And a run takes no `.` at
 * all: `build/*` could expand to `build/x.engineering` only where such a name exists, which is the
 * tree's to say, as with any folder a word names.
 */
function shellGlobTokens(word: string): Token[] {
  const tokens: Token[] = []
  for (let index = 0; index < word.length; index++) {
    const char = word[index] as string
    if (char === '*') tokens.push({ kind: 'run' })
    else if (char === '?') tokens.push({ kind: 'one' })
    else if (char === '[' && word.indexOf(']', index + 2) !== -1) {
      tokens.push({ kind: 'one' })
      index = word.indexOf(']', index + 2)
    } else tokens.push({ kind: 'char', char })
  }
  return tokens
}

/** A trace-spec glob's tokens: `*` any run, `?` any one character, everything else literal. */
export function specGlobTokens(pattern: string): Token[] {
  return [...pattern].map((char): Token => (char === '*' ? { kind: 'run' } : char === '?' ? { kind: 'one' } : { kind: 'char', char }))
}

/** A literal's tokens, for an `exact`/`equals` matcher. */
export function literalTokens(text: string): Token[] {
  return [...text].map((char): Token => ({ kind: 'char', char }))
}

/** Whether the shell glob `word` may expand to a path `matcher` matches as `file:<path>`, or as the folder `file:<path>/`. */
export function shellGlobMayName(word: string, matcher: readonly Token[]): boolean {
  const named = [...literalTokens('file:'), ...shellGlobTokens(word)]
  // The path itself, or as a folder (`.*` may be `.engineering`, matched as `.engineering/`), as a word naming a folder is read.
  return overlaps(named, matcher, 'file:'.length) || overlaps([...named, { kind: 'char', char: '/' }], matcher, 'file:'.length)
}

/** One character both tokens accept, where the shell side stands at a segment's start or not; undefined for none. */
function sharedChar(shell: Token, spec: Token, atSegmentStart: boolean): string | undefined {
  const shellAccepts = (char: string): boolean => {
    if (shell.kind === 'char') return shell.char === char
    if (char === '/') return false
    return char !== '.' || (shell.kind === 'one' && !atSegmentStart)
  }
  if (spec.kind === 'char') return shellAccepts(spec.char) ? spec.char : undefined
  if (shell.kind === 'char') return shell.char
  // Both take (nearly) any character: one neither refuses.
  return 'x'
}

/**
 * Whether some string matches both token lists: a breadth-first walk over (position in `a`,
 * position in `b`, whether `a` stands at a path segment's start). `start` is where `a`'s path
 * begins (after `file:`), a segment's start.
 */
function overlaps(a: readonly Token[], b: readonly Token[], start: number): boolean {
  const seen = new Set<number>()
  const queue: [number, number, boolean][] = [[0, 0, false]]
  const key = (i: number, j: number, atStart: boolean): number => (i * (b.length + 1) + j) * 2 + (atStart ? 1 : 0)
  while (queue.length > 0) {
    const [i, j, atStart] = queue.pop() as [number, number, boolean]
    if (seen.has(key(i, j, atStart))) continue
    seen.add(key(i, j, atStart))
    if (i === a.length && j === b.length) return true
    const tokenA = a[i]
    const tokenB = b[j]
    // A run may match nothing.
    if (tokenA?.kind === 'run') queue.push([i + 1, j, atStart])
    if (tokenB?.kind === 'run') queue.push([i, j + 1, atStart])
    if (tokenA === undefined || tokenB === undefined) continue
    const char = sharedChar(tokenA, tokenB, atStart)
    if (char === undefined) continue
    // Both consume the character; a run stays where it is for the next one. A segment starts after `/`, and where the path does.
    const next = tokenA.kind === 'run' ? i : i + 1
    queue.push([next, tokenB.kind === 'run' ? j : j + 1, char === '/' || (i < start && next === start)])
  }
  return false
}
