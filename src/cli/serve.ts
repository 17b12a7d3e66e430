import { resolve } from 'node:path'
import { serveProvider } from '../../recorders/serve.js'
import { PROVIDER_MODES, type ProviderMode } from '../../recorders/provider/modes.js'
import { UsageError, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { EXIT, type ExitCode } from '../util/exit-codes.js'
import type { CliIO } from './io.js'

/** Resolves when the process is asked to stop (SIGINT or SIGTERM). */
function untilSignalled(): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolveStop()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
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
  const mode = stringOption(args, 'mode') as ProviderMode | undefined
  const served = await serveProvider({
    ...(cassette !== undefined ? { cassette: resolve(io.cwd, cassette) } : {}),
    ...(scenario !== undefined ? { scenario: resolve(io.cwd, scenario) } : {}),
    ...(mode !== undefined ? { mode } : {}),
    ...(upstream !== undefined ? { upstream } : {}),
    ...(requests !== undefined ? { recordRequests: resolve(io.cwd, requests) } : {}),
    port,
    env: io.env,
  })
  io.stdout.write(served.handshake)
  await stopped
  await served.provider.close()
  return EXIT.OK
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serves a loopback model provider (OpenAI Responses, Chat Completions, Anthropic Messages) from a cassette or a scenario.',
  usage: '(--cassette FILE | --scenario FILE) [--mode MODE] [--upstream URL] [--record-requests FILE] [--port 0]',
  options: [
    { name: 'cassette', type: 'string', valueName: 'FILE', description: 'the cassette to replay (or to write in record/auto mode)' },
    { name: 'scenario', type: 'string', valueName: 'FILE', description: 'a scripted model (YAML or JSON); records into --cassette in record mode' },
    { name: 'mode', type: 'string', choices: [...PROVIDER_MODES], description: 'default: VITEST_HARNESS_MODE, else replay; record/auto are refused when CI is set' },
    { name: 'upstream', type: 'string', valueName: 'URL', description: 'the real provider to record from or pass through to' },
    { name: 'record-requests', type: 'string', valueName: 'FILE', description: 'append one JSON line per request (never a credential value)' },
    { name: 'port', type: 'string', valueName: 'N', description: 'the loopback port (default 0: an ephemeral port)' },
  ],
  run: (args, io) => runServe(args, io, untilSignalled()),
}
