import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'

/** `opencode run --format json`; its storage under scratch XDG dirs, the provider in its config. */
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
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  },
  directories: ['home', 'opencode', 'xdg-config', 'xdg-data', 'xdg-cache', 'xdg-state'],
  trajectory: { format: 'opencode-storage-json', path: 'xdg-data/opencode/storage' },
  stdout: { format: 'opencode-run-json' },
  bindings: {
    'openai-chat': {
      args: ['--model', 'vitest-harness/{model}'],
      files: [
        {
          path: 'opencode/opencode.json',
          content: `{"provider":{"vitest-harness":{"npm":"@ai-sdk/openai-compatible","options":{"baseURL":"{baseUrl}","apiKey":"${LOOPBACK_PLACEHOLDER_KEY}"},"models":{"{model}":{}}}}}\n`,
        },
      ],
    },
  },
})
