import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'

/** pi in JSON mode; its sessions under a scratch session dir, the provider in its `models.json` (shape unverified against a live run). */
export const piLaunch = defineLaunch({
  adapter: 'pi',
  binary: 'pi',
  install: { kind: 'npm', package: '@earendil-works/pi-coding-agent', version: '0.84.2' },
  pinnedVersion: '0.84.2',
  argv: ['--mode', 'json', '{binding}', '-p', '{prompt}'],
  env: {
    PATH: CHILD_PATH,
    HOME: '{root}/home',
    PI_CODING_AGENT_DIR: '{root}/pi-agent',
    PI_CODING_AGENT_SESSION_DIR: '{root}/sessions',
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  },
  directories: ['home', 'pi-agent', 'sessions'],
  trajectory: { format: 'pi-session-jsonl', path: 'sessions' },
  bindings: {
    'openai-responses': {
      args: ['--provider', 'vitest-harness', '--model', '{model}'],
      env: { VITEST_HARNESS_PROVIDER_KEY: LOOPBACK_PLACEHOLDER_KEY },
      files: [
        {
          path: 'pi-agent/models.json',
          content: '{"providers":{"vitest-harness":{"baseUrl":"{baseUrl}","api":"openai-responses","apiKey":"VITEST_HARNESS_PROVIDER_KEY","models":[{"id":"{model}"}]}}}\n',
        },
      ],
    },
    'anthropic-messages': {
      args: ['--provider', 'vitest-harness', '--model', '{model}'],
      env: { VITEST_HARNESS_PROVIDER_KEY: LOOPBACK_PLACEHOLDER_KEY },
      files: [
        {
          path: 'pi-agent/models.json',
          content: '{"providers":{"vitest-harness":{"baseUrl":"{origin}","api":"anthropic-messages","apiKey":"VITEST_HARNESS_PROVIDER_KEY","models":[{"id":"{model}"}]}}}\n',
        },
      ],
    },
  },
})
