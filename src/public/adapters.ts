/** `vitest-harness/adapters`: the adapter registry and the built-in adapters. */
export * from '../../adapters/index.js'
