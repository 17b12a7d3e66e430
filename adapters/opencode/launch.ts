import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'

const PROVIDER = 'vitest-harness'
const KEY_VARIABLE = 'VITEST_HARNESS_PROVIDER_KEY'

/**
 * opencode's config: one OpenAI-compatible provider on the loopback URL, sharing and updates off.
 * `$schema` is named up front because opencode rewrites a config without one to add it.
 */
const CONFIG = `${JSON.stringify({
  $schema: 'https://opencode.ai/config.json',
  autoupdate: false,
  share: 'disabled',
  provider: { [PROVIDER]: { npm: '@ai-sdk/openai-compatible', options: { baseURL: '{baseUrl}', apiKey: `{env:${KEY_VARIABLE}}` }, models: { '{model}': {} } } },
})}\n`

/**
 * `opencode run --format json` (1.18.18, verified live on the Chat Completions wire): its config in a
 * scratch `OPENCODE_CONFIG_DIR`, its data (a SQLite database since 1.x, no storage tree) under
 * scratch XDG dirs. Offline by construction: no models.dev fetch (`OPENCODE_DISABLE_MODELS_FETCH`),
 * no plugin install into the config dir (`OPENCODE_PURE`, `OPENCODE_DISABLE_DEFAULT_PLUGINS`; without
 * them it `npm install`s `@opencode-ai/plugin` and `@opentui/*` on every run), and any other outbound
 * request sent to a dead loopback proxy. `@ai-sdk/openai-compatible` is bundled in the binary.
 */
export const opencodeLaunch = defineLaunch({
  adapter: 'opencode',
  binary: 'opencode',
  install: { kind: 'npm', package: 'opencode-ai', version: '1.18.18' },
  pinnedVersion: '1.18.18',
  argv: ['run', '--format', 'json', '{binding}', '{prompt}'],
  env: {
    PATH: CHILD_PATH,
    HOME: '{root}/home',
    OPENCODE_CONFIG_DIR: '{root}/opencode',
    XDG_CONFIG_HOME: '{root}/xdg-config',
    XDG_DATA_HOME: '{root}/xdg-data',
    XDG_CACHE_HOME: '{root}/xdg-cache',
    XDG_STATE_HOME: '{root}/xdg-state',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_PURE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    // Anything but the loopback provider goes to a port nothing listens on: offline, whatever the version adds.
    HTTP_PROXY: 'http://127.0.0.1:9',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    npm_config_offline: 'true',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  },
  directories: ['home', 'opencode', 'xdg-config', 'xdg-data', 'xdg-cache', 'xdg-state'],
  stdout: { format: 'opencode-run-json' },
  bindings: {
    'openai-chat': {
      args: ['--model', `${PROVIDER}/{model}`],
      // opencode's `{env:NAME}` reads the key from the environment: the config file never holds it.
      env: { [KEY_VARIABLE]: LOOPBACK_PLACEHOLDER_KEY },
      files: [{ path: 'opencode/opencode.json', content: CONFIG }],
    },
  },
  normalised: [
    { what: 'session, message and part ids (time-ordered)', pattern: '\\b(ses|msg|prt)_[0-9A-Za-z]{26}\\b', replacement: '$1_<id>' },
    { what: 'epoch-millisecond clocks', pattern: '"(timestamp|start|end|created|updated|completed)":\\d{13}', replacement: '"$1":0' },
  ],
  verified: {
    wire: 'openai-chat',
    suite: 'test/e2e/opencode.test.ts',
    fromDeclaration: true,
    traceChecked: ['opencode-run-json', 'opencode-export-json'],
    sideRequests: 'a title request first (no tools, the prompt as its input), then one request per model turn',
  },
})
