import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'
import { CLAUDE_PINNED_VERSIONS } from './declaration.js'

/**
 * `claude -p` headless, stream-json on stdout, its session file under a scratch config dir.
 * `--allowedTools` instead of `--dangerously-skip-permissions`, which Claude Code refuses as root.
 */
export const claudeLaunch = defineLaunch({
  adapter: 'claude',
  binary: 'claude',
  install: { kind: 'npm', package: '@anthropic-ai/claude-code', version: CLAUDE_PINNED_VERSIONS[0] as string },
  pinnedVersion: CLAUDE_PINNED_VERSIONS[0] as string,
  argv: ['-p', '{prompt}', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read,Bash,Glob,Grep,Edit,Write', '{binding}'],
  env: {
    PATH: CHILD_PATH,
    HOME: '{root}/home',
    CLAUDE_CONFIG_DIR: '{root}/claude',
    TMPDIR: '{root}/tmp',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  },
  directories: ['home', 'claude', 'tmp'],
  trajectory: { format: 'claude-session-jsonl', path: 'claude/projects' },
  stdout: { format: 'claude-code/stream-json' },
  // 2.1.328 refuses a model name it does not know (`unrecognized_model`) and exits 1.
  model: 'claude-sonnet-4-5',
  bindings: {
    'anthropic-messages': {
      args: ['--model', '{model}'],
      env: { ANTHROPIC_BASE_URL: '{origin}', ANTHROPIC_API_KEY: LOOPBACK_PLACEHOLDER_KEY },
    },
  },
  verified: {
    wire: 'anthropic-messages',
    suite: 'test/e2e/claude.test.ts',
    fromDeclaration: false,
    sideRequests: 'tool-less side requests (title, quota checks) besides the model turns; the suite records however many it sends',
    traceChecked: ['claude-code/stream-json', 'claude-session-jsonl'],
  },
})
