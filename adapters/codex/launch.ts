import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'
import { CODEX_PINNED_VERSIONS } from './declaration.js'

const PROVIDER = 'vitest_harness'
const KEY_VARIABLE = 'VITEST_HARNESS_PROVIDER_KEY'

/**
 * `codex exec --json` headless: `exec --json` on stdout, the rollout under a scratch
 * `CODEX_HOME`, the loopback provider declared with `-c` overrides (Codex 0.169 speaks the
 * Responses wire and offers `exec_command {"cmd"}`).
 */
export const codexLaunch = defineLaunch({
  adapter: 'codex',
  binary: 'codex',
  install: { kind: 'npm', package: '@openai/codex', version: CODEX_PINNED_VERSIONS[0] as string },
  pinnedVersion: CODEX_PINNED_VERSIONS[0] as string,
  argv: [
    'exec',
    '--json',
    '--skip-git-repo-check',
    '--color',
    'never',
    '--sandbox',
    'workspace-write',
    '-c',
    'approval_policy="never"',
    '-c',
    'analytics.enabled=false',
    '{binding}',
    '--',
    '{prompt}',
  ],
  env: { PATH: CHILD_PATH, HOME: '{root}/home', CODEX_HOME: '{root}/codex-home', TMPDIR: '{root}/tmp', LANG: 'C.UTF-8', TERM: 'dumb' },
  directories: ['home', 'codex-home', 'tmp'],
  trajectory: { format: 'codex/rollout-jsonl', path: 'codex-home/sessions' },
  stdout: { format: 'codex/exec-json' },
  bindings: {
    'openai-responses': {
      args: [
        '-c',
        `model_provider="${PROVIDER}"`,
        '-c',
        `model_providers.${PROVIDER}.name="${PROVIDER}"`,
        '-c',
        `model_providers.${PROVIDER}.base_url="{baseUrl}"`,
        '-c',
        `model_providers.${PROVIDER}.wire_api="responses"`,
        '-c',
        `model_providers.${PROVIDER}.env_key="${KEY_VARIABLE}"`,
        '--model',
        '{model}',
      ],
      env: { [KEY_VARIABLE]: LOOPBACK_PLACEHOLDER_KEY },
    },
  },
  verified: {
    wire: 'openai-responses',
    suite: 'test/e2e/codex.test.ts',
    fromDeclaration: false,
    sideRequests: 'none: one Responses request per model turn',
    traceChecked: ['codex/exec-json', 'codex/rollout-jsonl'],
  },
})
