// `npm run generate:harness-matrix`: writes docs/harnesses.md from the launch declarations and the
// project's vectors. A unit test fails when the committed page is out of date.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { allLaunches } from '../adapters/launch/launches.js'
import { harnessMatrix } from '../src/contract/harness-matrix.js'
import { loadVectors } from '../src/contract/manifest.js'

const page = fileURLToPath(new URL('../docs/harnesses.md', import.meta.url))
// The contract vectors, and the C1 vectors of the harnesses that launch through their declaration alone.
const vectors = [...loadVectors(fileURLToPath(new URL('../vectors', import.meta.url))), ...loadVectors(fileURLToPath(new URL('../test/fixtures/launch-vectors', import.meta.url)))]
const text = harnessMatrix(allLaunches(), vectors)
if (existsSync(page) && readFileSync(page, 'utf8') === text) console.log('docs/harnesses.md is up to date')
else {
  mkdirSync(dirname(page), { recursive: true })
  writeFileSync(page, text)
  console.log('docs/harnesses.md: wrote the harness matrix')
}
