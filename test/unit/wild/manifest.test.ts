import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { WILD } from '../../helpers/wild.js'
import { entryDigest, readManifestRows, renderCorpusManifest, rowEntry, wildFolders } from '../../helpers/wild-manifest.js'

// Every corpus entry is named in its folder's manifest with the digest of the bytes committed, and
// every row names an entry that is there: nothing enters the corpus unaccounted for.
describe('the wild corpus manifests', () => {
  for (const folder of wildFolders(WILD)) {
    it(folder, () => {
      const rows = readManifestRows(readFileSync(join(WILD, folder, 'MANIFEST.md'), 'utf8'))
      const entries = readdirSync(join(WILD, folder)).filter((name) => name !== 'MANIFEST.md').sort()
      expect(rows.map(rowEntry).sort(), 'one row per entry').toEqual(entries)
      for (const row of rows) {
        expect(entryDigest(join(WILD, folder, rowEntry(row))), `${rowEntry(row)}'s sha256`).toBe(row.sha256)
        expect(row.licence.length, `${rowEntry(row)} names its licence`).toBeGreaterThan(0)
        expect(row.commit, `${rowEntry(row)} names its commit`).toMatch(/^[0-9a-f]{40}$/)
      }
    })
  }

  it('roll up into test/fixtures/wild/MANIFEST.md (npm run generate:wild-manifest)', () => {
    expect(readFileSync(join(WILD, 'MANIFEST.md'), 'utf8')).toBe(renderCorpusManifest(WILD))
  })

  it('hold at least 80 real transcripts (issue 11)', () => {
    const count = wildFolders(WILD).reduce((sum, folder) => sum + readManifestRows(readFileSync(join(WILD, folder, 'MANIFEST.md'), 'utf8')).length, 0)
    expect(count).toBeGreaterThanOrEqual(80)
  })
})
