/** `vitest-harness/recorders`: the loopback provider, cassettes, scenarios, the launch recorder and the nock bridge. */
export * from '../../recorders/index.js'
