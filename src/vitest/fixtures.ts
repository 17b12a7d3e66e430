import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { inject, test as base } from 'vitest'
import type { ProviderMode } from '../../recorders/provider/modes.js'
import type { RequestLogEntry } from '../../recorders/provider/request-log.js'
import type { ScopeReport } from '../../recorders/provider/scope.js'
import { withCleanStack } from './refusal.js'
import { prefixed } from '../util/log.js'
import { PROVIDED_OPTIONS_KEY, PROVIDED_PROVIDER_KEY, type ProvidedHarnessProvider } from './provided.js'

/** What a test gets from the `provider` fixture: its own cassette scope on the run's provider. */
export interface ProviderFixture {
  /** `…/v1`: the base URL OpenAI clients take (`OPENAI_BASE_URL`, Codex's `base_url`). */
  readonly baseUrl: string
  /** Without `/v1`: what Anthropic clients take (`ANTHROPIC_BASE_URL`). */
  readonly origin: string
  readonly mode: ProviderMode
  /** This test's cassette file. */
  readonly cassette: string
  /** The requests this scope has seen so far. */
  requests(): Promise<readonly RequestLogEntry[]>
}

/** Thrown after a test whose requests missed its cassette: the test fails with each miss's sentence. */
export class CassetteMissError extends Error {
  readonly code = 'VH_CASSETTE_MISS'

  constructor(report: ScopeReport) {
    const dropped = report.missesDropped > 0 ? `\n  (and ${report.missesDropped} earlier miss(es) no longer kept in memory)` : ''
    super(prefixed(`${report.misses.length + report.missesDropped} request(s) missed the cassette ${report.cassette}:\n${report.misses.map((miss) => `  - ${miss.message}`).join('\n')}${dropped}`))
    this.name = 'CassetteMissError'
  }
}

/** The provider refused what the fixture asked (a missing, corrupt or locked cassette…): its code and its sentence, which names the file. */
export class ProviderControlError extends Error {
  constructor(
    readonly code: string | undefined,
    sentence: string,
  ) {
    super(prefixed(code === undefined ? sentence : `${code}: ${sentence.replace(/^\[vitest-harness\] /, '')}`))
    this.name = 'ProviderControlError'
    // A refusal with a code: frames into this package would say nothing the sentence does not.
    if (code !== undefined) withCleanStack(this)
  }
}

/** How much of the name the readable part keeps; the hash carries the rest of the identity. */
const SLUG_MAX = 60

function slug(text: string): string {
  const ascii = text.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
  return ascii.slice(0, SLUG_MAX).replace(/-$/, '') || 'test'
}

interface TaskLike {
  name: string
  file?: { name: string; tasks?: readonly { name: string }[] }
  suite?: TaskLike | undefined
  tasks?: readonly { name: string }[]
}

/**
 * `<cassettesDir>/<test file>/<slug>-<hash>.cassette.jsonl`: one per test, stable across machines.
 * The slug is for people; the hash (10 hex of sha256 over the file path relative to the project root
 * and the suite-and-test names, exactly as written) keeps names that differ only in case,
 * punctuation or script apart. A second test of the same name beside the first (Vitest allows it)
 * is told apart by its place among them.
 */
export function cassettePathFor(cassettesDir: string, task: TaskLike): string {
  const names: string[] = []
  for (let current: TaskLike | undefined = task; current && current !== (task.file as unknown) && !('filepath' in current); current = current.suite) names.unshift(current.name)
  // Vitest names a file by its path relative to the project root; `/` on every platform.
  const relative = (task.file?.name ?? 'tests').replaceAll('\\', '/')
  const siblings = (task.suite ?? task.file)?.tasks ?? []
  const repeat = siblings.slice(0, Math.max(0, siblings.indexOf(task))).filter((sibling) => sibling.name === task.name).length
  const identity = repeat === 0 ? [relative, ...names] : [relative, ...names, repeat]
  const hash = createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 10)
  return join(cassettesDir, relative.replace(/\.[cm]?[jt]sx?$/, ''), `${slug(names.join(' '))}-${hash}.cassette.jsonl`)
}

async function control<T>(provided: ProvidedHarnessProvider, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${provided.origin}/__vitest-harness${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${provided.controlToken}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const value = (await response.json()) as T & { error?: string; code?: string }
  if (!response.ok) throw new ProviderControlError(value.code, value.error ?? `control ${path} answered ${response.status}`)
  return value
}

/**
 * `test` with a `provider` fixture: each test gets its own cassette scope (replay, record, auto or
 * passthrough as configured) on the one provider the plugin started. A request that misses the
 * cassette fails the test, naming the nearest recorded request and where it differs.
 *
 * @example
 * import { test } from 'vitest-harness/setup'
 * test('answers', async ({ provider }) => {
 *   const client = new OpenAI({ baseURL: provider.baseUrl, apiKey: 'placeholder' })
 * })
 */
export const test = base.extend('provider', async ({ task }, { onCleanup }): Promise<ProviderFixture> => {
  const provided = inject(PROVIDED_PROVIDER_KEY)
  const options = inject(PROVIDED_OPTIONS_KEY)
  if (!provided || !options || options.provider === false) {
    throw new Error(prefixed('the provider fixture needs the plugin: add harness() to your Vitest config plugins (and do not set provider: false)'))
  }
  const cassette = cassettePathFor(provided.cassettesDir, task as unknown as TaskLike)
  const scope = await control<{ id: string; baseUrl: string; origin: string }>(provided, '/scopes', {
    mode: provided.mode,
    cassette,
    ...(options.provider.upstream ? { upstream: options.provider.upstream } : {}),
    ...(provided.scenario ? { scenario: provided.scenario } : {}),
    match: options.provider.match,
    redact: options.provider.redact,
    exhausted: options.provider.exhausted,
  })
  onCleanup(async () => {
    const report = await control<ScopeReport>(provided, `/scopes/${scope.id}/close`, {})
    if (report.misses.length > 0 || report.missesDropped > 0) throw new CassetteMissError(report)
  })
  return {
    baseUrl: scope.baseUrl,
    origin: scope.origin,
    mode: provided.mode,
    cassette,
    requests: async () => (await control<ScopeReport>(provided, `/scopes/${scope.id}`)).requests,
  }
})
