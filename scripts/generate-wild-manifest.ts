// `npm run generate:wild-manifest`: rolls the corpus folders' own manifests up into
// test/fixtures/wild/MANIFEST.md; test/unit/wild/manifest.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderCorpusManifest } from '../test/helpers/wild-manifest.js'

const wild = fileURLToPath(new URL('../test/fixtures/wild', import.meta.url))
const file = `${wild}/MANIFEST.md`
const after = renderCorpusManifest(wild)
if (readFileSync(file, 'utf8') === after) console.log('test/fixtures/wild/MANIFEST.md is up to date')
else {
  writeFileSync(file, after)
  console.log('wrote test/fixtures/wild/MANIFEST.md')
}
