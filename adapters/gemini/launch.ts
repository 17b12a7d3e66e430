import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'
import { GEMINI_PINNED_VERSIONS } from './declaration.js'

// Auth by API key (the placeholder), auto-update, its notice, usage statistics and telemetry off.
const SETTINGS = JSON.stringify({
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
})

/**
 * `gemini -p … --output-format stream-json` headless (0.61): its settings and session files under a
 * scratch `GEMINI_CLI_HOME`, the workspace trusted for the run, every tool approved (`--yolo`), the
 * provider through `GOOGLE_GEMINI_BASE_URL` (0.61 accepts http only on loopback). `--model` is
 * given so the CLI skips its routing classifier call; with it, a run sends only
 * `streamGenerateContent` requests (no countTokens, no next-speaker check, no loadCodeAssist).
 */
export const geminiLaunch = defineLaunch({
  adapter: 'gemini',
  binary: 'gemini',
  install: { kind: 'npm', package: '@google/gemini-cli', version: GEMINI_PINNED_VERSIONS[0] as string },
  pinnedVersion: GEMINI_PINNED_VERSIONS[0] as string,
  argv: ['-p', '{prompt}', '--output-format', 'stream-json', '--yolo', '{binding}'],
  env: {
    PATH: CHILD_PATH,
    HOME: '{root}/home',
    GEMINI_CLI_HOME: '{root}/home',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
    TMPDIR: '{root}/tmp',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  },
  directories: ['home', 'home/.gemini', 'tmp'],
  trajectory: { format: 'gemini-cli/session-jsonl', path: 'home/.gemini/tmp' },
  stdout: { format: 'gemini-cli/stream-json' },
  bindings: {
    gemini: {
      args: ['--model', '{model}'],
      env: { GOOGLE_GEMINI_BASE_URL: '{origin}', GEMINI_API_KEY: LOOPBACK_PLACEHOLDER_KEY },
      files: [{ path: 'home/.gemini/settings.json', content: `${SETTINGS}\n` }],
    },
  },
  verified: {
    wire: 'gemini',
    suite: 'test/e2e/gemini.test.ts',
    fromDeclaration: true,
    sideRequests: 'none with --model: one streamGenerateContent per model turn (without --model, a routing-classifier generateContent call comes first)',
    traceChecked: ['gemini-cli/session-jsonl'],
  },
})
