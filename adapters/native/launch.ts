import { CHILD_PATH, LOOPBACK_PLACEHOLDER_KEY, defineLaunch } from '../launch/declaration.js'

/** Reef's native loop (`reef-native -p`), its session tree under a scratch dir; it speaks Chat Completions. */
export const nativeLaunch = defineLaunch({
  adapter: 'native',
  binary: 'reef-native',
  pinnedVersion: null,
  argv: ['-p', '{prompt}', '{binding}'],
  env: { PATH: CHILD_PATH, HOME: '{root}/home', REEF_NATIVE_DIR: '{root}/native', REEF_NATIVE_SESSION_DIR: '{root}/native/sessions', LANG: 'C.UTF-8' },
  directories: ['home', 'native/sessions'],
  trajectory: { format: 'native-jsonl', path: 'native/sessions' },
  bindings: {
    'openai-chat': { env: { OPENAI_BASE_URL: '{baseUrl}', OPENAI_API_KEY: LOOPBACK_PLACEHOLDER_KEY, REEF_NATIVE_MODEL: '{model}' } },
  },
})
