/**
 * Whether a shell glob a command was given (`rm -rf .*`, `cat .store/*.md`, `rm $F`) could name a
 * path a subject matcher would match: the shell expands the word, so the path is none of its
 * letters as written, only one of the paths it may expand to. Decided by walking both patterns at
 * once over every string they could both match (their product automaton); both are short, so the
 * walk is a few hundred steps at most.
 */
import { VISIBLE_SUFFIX } from '../../../adapters/shared/shell-folder.js'
import { BRACE_LIST } from '../../../adapters/shared/shell.js'

/**
 * One position of a pattern: a literal character, one character, a run of characters, or `any`
 * run at all. Which characters `one` and `run` take is their side's: any for a matcher, a name's
 * for a shell glob. `any` is a shell word's part no reader can know (`$F`, `$(…)`, `**`): every
 * character, `/` and a leading `.` included. A word that stands for a folder's whole contents
 * (`src/**`, what `rm -rf src` removes) ends in an `any` that is its `contents`; a `visible` one
 * takes no segment's leading `.` (what ripgrep searches by default, `VISIBLE_SUFFIX`).
 */
export type Token = { readonly kind: 'char'; readonly char: string } | { readonly kind: 'one' | 'run' } | { readonly kind: 'any'; readonly contents?: true; readonly visible?: true }

/**
 * Whether a shell changes a word before a program sees it: a glob (`*`, `?`, a bracket), a
 * parameter or command substitution (`$F`, `${F}`, `$(…)`, `` `…` ``), a home folder (`~/x`, read
 * by the caller) or a brace list or range (`{a,b}`, `{1..3}`).
 */
export function shellMayChange(word: string): boolean {
  return /[*?[$`]/.test(word) || word.startsWith('~') || BRACE_LIST.test(word)
}


// How many words a brace expansion is read as at most: past it, the rest is read as any text.
const MAX_BRACE_WORDS = 64

/**
 * The words a shell's brace expansion makes of one (`src/{a,b}.ts`: `src/a.ts`, `src/b.ts`), the
 * innermost list first; a range (`{1..3}`) is read as a glob's run. The word itself where it holds none.
 */
export function braceWords(word: string): string[] {
  const words = [word]
  const out: string[] = []
  while (words.length > 0) {
    const next = words.pop() as string
    const brace = BRACE_LIST.exec(next)
    if (brace === null || out.length + words.length >= MAX_BRACE_WORDS) {
      out.push(brace === null ? next : next.replace(BRACE_LIST, '*'))
      continue
    }
    const [before, after] = [next.slice(0, brace.index), next.slice(brace.index + brace[0].length)]
    const body = brace[0].slice(1, -1)
    if (!body.includes(',')) words.push(`${before}*${after}`)
    else for (const part of body.split(',').reverse()) words.push(`${before}${part}${after}`)
  }
  return out
}

/**
 * A shell glob's tokens: `*` a run of a name's letters, `?` and a bracket class one character (a
 * class is read as any: over-reading only ever says "could match"). None crosses a `/`, nor takes a
 * segment's leading `.` (bash's default: `*` is not `.store`, `.*` is). And a run takes no `.` at
 * all: `build/*` could expand to `build/x.engineering` only where such a name exists, which is the
 * tree's to say, as with any folder a word names.
 */
function shellGlobTokens(word: string): Token[] {
  // Everything visible under a folder (`src/**/!.*`, what `rg x` searches): its contents, no segment of which opens with `.`.
  if (word.endsWith(VISIBLE_SUFFIX)) return [...shellGlobTokens(word.slice(0, -VISIBLE_SUFFIX.length)), VISIBLE_CONTENTS]
  const tokens: Token[] = []
  const folderUpTo = word.endsWith('/**') ? word.length - 3 : 0
  for (let index = 0; index < word.length; index++) {
    const char = word[index] as string
    const unknown = char === '$' || char === '`' ? substitutionEnd(word, index) : char === '*' && word[index + 1] === '*' ? index + 2 : -1
    if (unknown !== -1) {
      tokens.push(unknown === word.length && index === folderUpTo + 1 ? CONTENTS : ANY)
      // `**/x` is `x` in any folder, the session's own included.
      index = char === '*' && word[unknown] === '/' ? unknown : unknown - 1
    } else if (char === '*') tokens.push({ kind: 'run' })
    else if (char === '?') tokens.push({ kind: 'one' })
    else if (char === '[' && word.indexOf(']', index + 2) !== -1) {
      tokens.push({ kind: 'one' })
      index = word.indexOf(']', index + 2)
    } else tokens.push({ kind: 'char', char })
  }
  return tokens
}

const ANY: Token = { kind: 'any' }
const CONTENTS: Token = { kind: 'any', contents: true }
const VISIBLE_CONTENTS: Token = { kind: 'any', contents: true, visible: true }

/**
 * Where a substitution that starts at `index` ends (`$F`, `${F}`, `$(…)`, `$((…))`, `` `…` ``):
 * the index after it, or the word's end for one left open. A `$` that starts none is itself.
 */
function substitutionEnd(word: string, index: number): number {
  const opening = word[index] === '`' ? '`' : word[index + 1]
  if (word[index] === '`') {
    const close = word.indexOf('`', index + 1)
    return close === -1 ? word.length : close + 1
  }
  if (opening === '{' || opening === '(') {
    const closing = opening === '{' ? '}' : ')'
    let depth = 0
    for (let at = index + 1; at < word.length; at++) {
      if (word[at] === opening) depth += 1
      else if (word[at] === closing && --depth === 0) return at + 1
    }
    return word.length
  }
  const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(word.slice(index + 1))
  return name === null ? -1 : index + 1 + name[0].length
}

/** A trace-spec glob's tokens: `*` any run, `?` any one character, everything else literal. */
export function specGlobTokens(pattern: string): Token[] {
  return [...pattern].map((char): Token => (char === '*' ? { kind: 'run' } : char === '?' ? { kind: 'one' } : { kind: 'char', char }))
}

/** A literal's tokens, for an `exact`/`equals` matcher. */
export function literalTokens(text: string): Token[] {
  return [...text].map((char): Token => ({ kind: 'char', char }))
}

/**
 * Whether the shell word `word` (see `shellMayChange`) may expand to a path `matcher` matches as
 * `file:<path>`, or as the folder `file:<path>/`: any of the words its braces make.
 */
export function shellGlobMayName(word: string, matcher: readonly Token[]): boolean {
  return braceWords(word).some((expanded) => globMayName(expanded, matcher))
}

function globMayName(word: string, matcher: readonly Token[]): boolean {
  const named = [...literalTokens('file:'), ...shellGlobTokens(word)]
  // The path itself, or as a folder (`.*` may be `.engineering`, matched as `.engineering/`), as a word naming a folder is read.
  return overlaps(named, matcher, 'file:'.length) || overlaps([...named, { kind: 'char', char: '/' }], matcher, 'file:'.length)
}

/** One character both tokens accept, where the shell side stands at a segment's start or not; undefined for none. */
function sharedChar(shell: Token, spec: Token, atSegmentStart: boolean): string | undefined {
  const shellAccepts = (char: string): boolean => {
    if (shell.kind === 'char') return shell.char === char
    if (shell.kind === 'any') return shell.visible !== true || char !== '.' || !atSegmentStart
    if (char === '/') return false
    // A shell's `*` and `?` take a dot anywhere but at a name's start (`*` is `README.md`, never `.env`).
    return char !== '.' || !atSegmentStart
  }
  if (spec.kind === 'char') return shellAccepts(spec.char) ? spec.char : undefined
  if (shell.kind === 'char') return shell.char
  // Both take (nearly) any character: one neither refuses.
  return 'x'
}

/**
 * Whether some string matches both token lists: a depth-first walk over (position in `a`, position
 * in `b`, whether `a` stands at a path segment's start, whether the matcher's wildcard took any of a
 * folder's letters). `start` is where `a`'s path begins (after `file:`), a segment's start. A
 * folder's contents name what a matcher names under that folder by its letters (`src/**` may be
 * `src/generated/x`), never what its wildcard might find in any folder (`*.engineering/*` in `build/`):
 * once a wildcard took a folder's letters, the contents give the matcher no letter of its own.
 */
function overlaps(a: readonly Token[], b: readonly Token[], start: number): boolean {
  const seen = new Set<number>()
  const queue: [number, number, boolean, boolean][] = [[0, 0, false, false]]
  const contentsAt = a.findIndex((token) => token.kind === 'any' && token.contents === true)
  const key = (i: number, j: number, atStart: boolean, absorbed: boolean): number => ((i * (b.length + 1) + j) * 2 + (atStart ? 1 : 0)) * 2 + (absorbed ? 1 : 0)
  while (queue.length > 0) {
    const [i, j, atStart, absorbed] = queue.pop() as [number, number, boolean, boolean]
    if (seen.has(key(i, j, atStart, absorbed))) continue
    seen.add(key(i, j, atStart, absorbed))
    if (i === a.length && j === b.length) return true
    const tokenA = a[i]
    const tokenB = b[j]
    // A run may match nothing.
    if (repeats(tokenA)) queue.push([i + 1, j, atStart, absorbed])
    if (repeats(tokenB)) queue.push([i, j + 1, atStart, absorbed])
    if (tokenA === undefined || tokenB === undefined) continue
    if (absorbed && tokenA.kind === 'any' && tokenA.contents === true && tokenB.kind === 'char') continue
    const char = sharedChar(tokenA, tokenB, atStart)
    if (char === undefined) continue
    // Both consume the character; a run stays where it is for the next one. A segment starts after `/`, and where the path does.
    const next = repeats(tokenA) ? i : i + 1
    const tookFolder = absorbed || (i >= start && i < contentsAt && tokenB.kind !== 'char')
    queue.push([next, repeats(tokenB) ? j : j + 1, char === '/' || (i < start && next === start), tookFolder])
  }
  return false
}

function repeats(token: Token | undefined): boolean {
  return token?.kind === 'run' || token?.kind === 'any'
}
