import { join } from 'node:path'
import { expect, it } from 'vitest'
import { REPO, runFixtureSuite } from '../helpers/run-suite.js'
import { tree } from '../helpers/tree.js'

it('the setup entry registers the matchers for every test file', async () => {
  const root = tree({
    'uses-matchers.test.ts': [
      "import { expect, it } from 'vitest'",
      "it('byte exact', () => expect('a\\n').toReplayByteExact('a\\n'))",
      "it('refusal', () => expect({ result: 'refused', refused: { code: 'TOO_LATE', reason: 'x' } }).toRefuseCommand('TOO_LATE'))",
      "it('fails like a matcher', () => expect('a\\n').toReplayByteExact('b\\n'))",
      '',
    ].join('\n'),
  })
  const tests = await runFixtureSuite(root, { setupFiles: [join(REPO, 'src', 'public', 'setup.ts')] })
  expect([...tests].map(([name, test]) => [name, test.state, test.errors[0]?.message])).toEqual([
    ['byte exact', 'passed', undefined],
    ['refusal', 'passed', undefined],
    ['fails like a matcher', 'failed', 'expected the replayed stream to equal the expected stream byte for byte: line 1: expected b, observed a'],
  ])
})
