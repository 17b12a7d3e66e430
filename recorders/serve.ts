import { closeSync, openSync, rmSync, writeSync } from 'node:fs'
import { basename } from 'node:path'
import { readCassette } from './provider/cassette.js'
import { loadScenario } from './provider/scenario.js'
import { startProvider, type Provider } from './provider/server.js'
import type { ProviderMode } from './provider/modes.js'
import { RecorderError } from './errors.js'

/** What `vitest-harness serve` takes, already parsed. */
export interface ServeOptions {
  readonly cassette?: string
  readonly scenario?: string
  readonly mode?: ProviderMode
  readonly upstream?: string
  readonly recordRequests?: string
  readonly port?: number
  /** The folder scopes opened through the control endpoint may read and write under; without it they name no files. */
  readonly cassetteRoot?: string
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** A served provider and the one handshake line that announces it. */
export interface Served {
  readonly provider: Provider
  /** `{"base_url":"http://127.0.0.1:PORT/v1","scenario":"…"}` and a newline: exactly one line. */
  readonly handshake: string
}

/**
 * Starts a provider from a cassette or a scenario file, as the upstream emulator's command line
 * does, and returns the handshake line a launcher reads to find it.
 */
export async function serveProvider(options: ServeOptions): Promise<Served> {
  if (options.cassette === undefined && options.scenario === undefined) {
    throw new RecorderError('VH_OPTION_INVALID', 'serve needs --cassette FILE or --scenario FILE', { location: '--cassette' })
  }
  const scenario = options.scenario === undefined ? undefined : loadScenario(options.scenario)
  const provider = await startProvider({
    ...(options.cassette !== undefined ? { cassette: options.cassette } : {}),
    ...(scenario ? { scenario } : {}),
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    ...(options.upstream !== undefined ? { upstream: options.upstream } : {}),
    ...(options.recordRequests !== undefined ? { recordRequests: options.recordRequests } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.cassetteRoot !== undefined ? { cassetteRoot: options.cassetteRoot } : {}),
    port: options.port ?? 0,
  })
  let name = scenario?.name
  if (name === undefined && options.cassette !== undefined) {
    const mode = provider.scope('default')?.mode
    name = mode === 'replay' ? (readCassette(options.cassette).scenario ?? basename(options.cassette)) : basename(options.cassette)
  }
  return { provider, handshake: `${JSON.stringify({ base_url: provider.baseUrl, scenario: name ?? '' })}\n` }
}

/**
 * Writes the control token to a fresh file only its owner can read (0600). Whatever was at the
 * path is removed first, and the file is created exclusively, so a planted symlink is not followed.
 */
export function writeControlTokenFile(path: string, token: string): void {
  rmSync(path, { force: true })
  const fd = openSync(path, 'wx', 0o600)
  try {
    writeSync(fd, `${token}\n`)
  } finally {
    closeSync(fd)
  }
}
