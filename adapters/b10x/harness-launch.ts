import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'
import { B10X_PINNED_VERSIONS, B10X_PROGRAM } from './declaration.js'

const KEY = 'VITEST_HARNESS_PROVIDER_KEY'

/** `b10x-harness run --json`: the loop record on stdout, nothing else kept (`--no-session`). */
export const b10xLaunch = defineLaunch({
  adapter: 'b10x',
  binary: B10X_PROGRAM,
  pinnedVersion: B10X_PINNED_VERSIONS[0] as string,
  argv: ['run', '--base-url', '{baseUrl}', '--model', '{model}', '--workspace', '{workspace}', '--execution-path', 'metaharness', '--json', '--no-session', '--approve-up-to', 'high', '{binding}', '--input', '{prompt}'],
  env: { PATH: CHILD_PATH, XDG_CONFIG_HOME: '{root}/config' },
  directories: ['config'],
  stdout: { format: 'b10x/loop-jsonl' },
  bindings: {
    'openai-responses': { args: ['--wire', 'openai-responses', '--api-key-env', KEY], env: { [KEY]: LOOPBACK_PLACEHOLDER_KEY } },
    'anthropic-messages': { args: ['--wire', 'anthropic-messages', '--api-key-env', KEY], env: { [KEY]: LOOPBACK_PLACEHOLDER_KEY } },
  },
})
