import { resolve } from 'node:path'
import { watchAncestors } from '../../recorders/parent-watch.js'
import { serveProvider, writeControlTokenFile } from '../../recorders/serve.js'
import { PROVIDER_MODES, type ProviderMode } from '../../recorders/provider/modes.js'
import { UsageError, flagOption, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { EXIT, type ExitCode } from '../util/exit-codes.js'
import type { CliIO } from './io.js'

/** How often the ancestors are looked for: `npx` runs us under `sh -c`, which can outlive a killed npm and leave us running. */
const PARENT_POLL_MS = 200

/**
 * Resolves when the process is asked to stop: the first SIGINT or SIGTERM, its parent or any
 * ancestor gone, or (with `--exit-on-stdin-close`) its stdin closed. The handlers are removed then,
 * so a second signal during shutdown kills at once.
 */
function untilStopped(io: CliIO, onStdinClose: boolean): { stopped: Promise<void>; dispose: () => void } {
  let dispose = () => {}
  const stopped = new Promise<void>((resolveStop) => {
    const stopWatching = watchAncestors((pid) => {
      io.stderr.write(`vitest-harness serve: process ${pid}, which started it, is gone; stopping\n`)
      stop()
    }, PARENT_POLL_MS)
    const stdinClosed = () => {
      io.stderr.write('vitest-harness serve: stdin closed; stopping\n')
      stop()
    }
    if (onStdinClose) {
      io.stdin.once('end', stdinClosed)
      io.stdin.once('close', stdinClosed)
      // Read and drop: 'end' comes only to a flowing stream.
      io.stdin.resume()
    }
    dispose = () => {
      stopWatching()
      io.stdin.off('end', stdinClosed)
      io.stdin.off('close', stdinClosed)
      if (onStdinClose) io.stdin.pause()
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    const stop = () => {
      dispose()
      resolveStop()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  return { stopped, dispose }
}

/** The command's body, with the stop signal injectable so tests run it in-process. */
export async function runServe(args: ParsedArgs, io: CliIO, stopped: Promise<void>): Promise<ExitCode> {
  if (args.positionals.length > 0) throw new UsageError(`serve takes no positional arguments; got ${JSON.stringify(args.positionals[0])}`)
  const cassette = stringOption(args, 'cassette')
  const scenario = stringOption(args, 'scenario')
  if (cassette === undefined && scenario === undefined) throw new UsageError('serve needs --cassette FILE or --scenario FILE')
  const portText = stringOption(args, 'port') ?? '0'
  const port = Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535; got ${JSON.stringify(portText)}`)
  const upstream = stringOption(args, 'upstream')
  const requests = stringOption(args, 'record-requests')
  const cassetteRoot = stringOption(args, 'cassette-root')
  const tokenFile = stringOption(args, 'control-token-file')
  const mode = stringOption(args, 'mode') as ProviderMode | undefined
  const served = await serveProvider({
    ...(cassette !== undefined ? { cassette: resolve(io.cwd, cassette) } : {}),
    ...(scenario !== undefined ? { scenario: resolve(io.cwd, scenario) } : {}),
    ...(mode !== undefined ? { mode } : {}),
    ...(upstream !== undefined ? { upstream } : {}),
    ...(requests !== undefined ? { recordRequests: resolve(io.cwd, requests) } : {}),
    ...(cassetteRoot !== undefined ? { cassetteRoot: resolve(io.cwd, cassetteRoot) } : {}),
    port,
    env: io.env,
  })
  try {
    // The token goes to its owner once: into a 0600 file when asked, else on stderr (stdout is the handshake alone).
    if (tokenFile !== undefined) writeControlTokenFile(resolve(io.cwd, tokenFile), served.provider.controlToken)
    else io.stderr.write(`control token: ${served.provider.controlToken} (authorization: Bearer <token> on ${served.provider.origin}/__vitest-harness/…)\n`)
  } catch (error) {
    await served.provider.close()
    throw error
  }
  io.stdout.write(served.handshake)
  // Whichever comes first: a stop signal, or a failure after listen (which must not leave a dead server waiting for a signal).
  const failed = await Promise.race([stopped.then(() => undefined), served.provider.failure])
  await served.provider.close()
  if (failed === undefined) return EXIT.OK
  io.stderr.write(`error: ${failed.code}: ${failed.message}\n`)
  return EXIT.REFUSAL
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serves a loopback model provider (OpenAI Responses, Chat Completions, Anthropic Messages) from a cassette or a scenario.',
  usage: '(--cassette FILE | --scenario FILE) [--mode MODE] [--upstream URL] [--record-requests FILE] [--port 0] [--cassette-root DIR] [--control-token-file FILE] [--exit-on-stdin-close]',
  options: [
    { name: 'cassette', type: 'string', valueName: 'FILE', description: 'the cassette to replay (or to write in record/auto mode)' },
    { name: 'scenario', type: 'string', valueName: 'FILE', description: 'a scripted model (YAML or JSON); records into --cassette in record mode' },
    { name: 'mode', type: 'string', choices: [...PROVIDER_MODES], description: 'default: VITEST_HARNESS_MODE, else replay; record, auto and passthrough are refused when CI is set' },
    { name: 'upstream', type: 'string', valueName: 'URL', description: 'the real provider to record from or pass through to' },
    { name: 'record-requests', type: 'string', valueName: 'FILE', description: 'append one JSON line per request (never a credential value)' },
    { name: 'port', type: 'string', valueName: 'N', description: 'the loopback port (default 0: an ephemeral port)' },
    { name: 'cassette-root', type: 'string', valueName: 'DIR', description: 'the folder scopes opened through the control endpoint may read and write under (default: none, so they name no files)' },
    { name: 'control-token-file', type: 'string', valueName: 'FILE', description: 'write the control token to FILE (mode 0600) instead of printing it once on stderr' },
    { name: 'exit-on-stdin-close', type: 'boolean', description: 'stop when stdin closes (a parent that holds a pipe to it died); it always stops when its parent or an ancestor dies' },
  ],
  run: async (args, io) => {
    // Refused before it listened, or stopped: either way the watchers and signal handlers go with the command.
    const stop = untilStopped(io, flagOption(args, 'exit-on-stdin-close'))
    try {
      return await runServe(args, io, stop.stopped)
    } finally {
      stop.dispose()
    }
  },
}
