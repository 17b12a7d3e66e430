import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { docPages, isTestSample, pageSamples, type DocSample } from '../helpers/doc-samples.js'

// Every ```ts and ```sh sample of the README and the docs site runs — not only compiles — against
// the package as a user installs it: packed, installed with Vitest (and the SDKs the provider pages
// use) into a fresh project. Each page gets its own scratch project and runs its samples in order.
const ROOT = resolve(import.meta.dirname, '..', '..')
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
const GOLDEN = join('vectors', 'b10x', 'golden-loop-record', 'loop.expected.jsonl')
let base = ''

/** The environment a sample runs in: the user's, without the outer Vitest's worker variables. */
function sampleEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'))
}

beforeAll(() => {
  const packDir = mkdtempSync(join(tmpdir(), 'vh-docs-pack-'))
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[]
  const tarball = join(packDir, (packed[0] as { filename: string }).filename)
  base = mkdtempSync(join(tmpdir(), 'vh-docs-base-'))
  writeFileSync(join(base, 'package.json'), JSON.stringify({ name: 'a-docs-reader', private: true, type: 'module' }))
  const version = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `vitest@${version('vitest')}`, `openai@${version('openai')}`], { cwd: base, stdio: 'pipe' })
})

/** A fresh project for one page, sharing the installed node_modules. */
function scratchProject(page: string): string {
  const dir = mkdtempSync(join(tmpdir(), `vh-docs-${page.replace(/[^a-z0-9]+/gi, '-')}-`))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'a-docs-reader', private: true, type: 'module' }))
  symlinkSync(join(base, 'node_modules'), join(dir, 'node_modules'), 'dir')
  return dir
}

interface Ran {
  readonly status: number | null
  readonly stdout: string
  readonly output: string
}

function runSample(dir: string, sample: DocSample): Ran | undefined {
  const name = sample.file ?? `sample-${sample.line}.${sample.lang === 'sh' ? 'sh' : isTestSample(sample.code) ? 'test.ts' : 'ts'}`
  mkdirSync(dirname(join(dir, name)), { recursive: true })
  writeFileSync(join(dir, name), sample.code)
  let command: string[]
  if (sample.lang === 'sh' && sample.file === undefined) command = ['sh', '-e', name]
  else if (sample.lang === 'ts' && name.endsWith('.test.ts')) command = [process.execPath, join('node_modules', 'vitest', 'vitest.mjs'), 'run', name]
  else if (sample.lang === 'ts' && sample.file === undefined) command = [process.execPath, '--import', TSX, name]
  else return undefined // a file the next samples read
  const run = spawnSync(command[0] as string, command.slice(1), { cwd: dir, encoding: 'utf8', env: sampleEnv(), timeout: 240_000 })
  return { status: run.status, stdout: run.stdout, output: `${run.stdout}${run.stderr}` }
}

const pages = docPages(ROOT).map((page) => ({ page, samples: pageSamples(ROOT, page) })).filter(({ samples }) => samples.length > 0)
const marked = pages.flatMap(({ samples }) => samples.filter((sample) => sample.noRun))

describe('every README and docs sample runs against the packed package', () => {
  it('lists the samples that are not meant to run — few, each marked no-run', () => {
    const listed = marked.map((sample) => `${sample.page}:${sample.line} ${sample.lang}`)
    console.log(`[vitest-harness] doc samples: ${pages.reduce((n, { samples }) => n + samples.length, 0)} in ${pages.length} page(s); ${marked.length} marked no-run:\n  ${listed.join('\n  ')}`)
    expect(marked.length).toBeLessThanOrEqual(12)
    // The README's install line and the repository's quick start are the ones a scratch project cannot run.
    expect(listed).toContain(`README.md:${marked.find((sample) => sample.code.startsWith('npm install -D vitest-harness vitest'))?.line} sh`)
  })

  for (const { page, samples } of pages) {
    it(`${page}: its ${samples.filter((sample) => !sample.noRun && !sample.output).length} sample(s) run`, () => {
      const dir = scratchProject(page)
      let last: { sample: DocSample; ran: Ran } | undefined
      for (const sample of samples) {
        if (sample.noRun) continue
        if (sample.output) {
          // The output a page shows is what the sample before it printed, to its last line.
          expect(last, `${page}:${sample.line}: an output block follows no sample that ran`).toBeDefined()
          expect(last?.ran.stdout.endsWith(sample.code), `${page}:${sample.line}: ${last?.sample.page}:${last?.sample.line} printed\n${last?.ran.stdout}`).toBe(true)
          continue
        }
        const ran = runSample(dir, sample)
        if (ran) {
          expect(ran.status, `${page}:${sample.line} (${sample.lang}) in ${dir}\n${ran.output}`).toBe(sample.exit)
          last = { sample, ran }
        }
      }
      if (page === 'README.md') {
        // The first example's command-line replay, byte for byte its golden file.
        expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe(readFileSync(join(ROOT, GOLDEN), 'utf8'))
      }
    }, 900_000)
  }
})
