import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * The code samples of the README and the docs site, read the way the samples test runs them. A
 * fence's info string is `LANG [no-run] [file=PATH] [exit=N]`:
 * - `no-run`: shown, never run (counted and listed by the test; keep them few);
 * - `file=PATH`: the block is written to PATH in the page's scratch project before the samples after
 *   it run (any language: a transcript, a spec, a config); a `file=*.test.ts` is then run by Vitest;
 * - `exit=N`: a shell sample that is meant to exit N (a gap is 1, an unknown 3);
 * - `output` (on a block of any language): what the shell sample before it prints ends with this
 *   block, so the output a page shows is what the command prints (a fleet's summary table).
 * Samples run in document order, one scratch project per page, so a page reads as a tutorial.
 */
export interface DocSample {
  /** The page, relative to the repository root. */
  readonly page: string
  /** The one-based line of the opening fence. */
  readonly line: number
  readonly lang: string
  readonly code: string
  readonly noRun: boolean
  readonly file: string | undefined
  readonly exit: number
  /** The block is the output the run sample before it ends with, not a sample itself. */
  readonly output: boolean
}

/** The languages whose blocks are samples even without `file=`. */
export const RUNNABLE_LANGS = new Set(['ts', 'sh'])

/** Every page the samples test reads: README.md and docs/**\/*.md, generated pages included. */
export function docPages(repo: string): string[] {
  const pages = ['README.md']
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name === '.vitepress' || name.startsWith('_')) continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.md')) pages.push(relative(repo, path))
    }
  }
  walk(join(repo, 'docs'))
  return pages
}

/** The fenced blocks of one page that are samples: a runnable language, or a `file=` block. */
export function pageSamples(repo: string, page: string): DocSample[] {
  const lines = readFileSync(join(repo, page), 'utf8').split('\n')
  const samples: DocSample[] = []
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S+)(.*)$/.exec(lines[index] as string)
    if (!open) continue
    const start = index
    const body: string[] = []
    for (index++; index < lines.length && lines[index] !== '```'; index++) body.push(lines[index] as string)
    const lang = open[1] as string
    const words = (open[2] as string).trim().split(/\s+/).filter(Boolean)
    const file = words.find((word) => word.startsWith('file='))?.slice('file='.length)
    const exit = Number(words.find((word) => word.startsWith('exit='))?.slice('exit='.length) ?? 0)
    const output = words.includes('output')
    if (!RUNNABLE_LANGS.has(lang) && file === undefined && !output) continue
    samples.push({ page, line: start + 1, lang, code: `${body.join('\n')}\n`, noRun: words.includes('no-run'), file, exit, output })
  }
  return samples
}

/** Whether a TypeScript sample without `file=` is a Vitest test file rather than a script. */
export function isTestSample(code: string): boolean {
  return /from 'vitest'/.test(code) || /\bdescribe(Harness|TraceSpec|StepMap)\(/.test(code)
}
