import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/**
 * The corpus manifests: one table per folder (`test/fixtures/wild/<folder>/MANIFEST.md`), rolled
 * up into `test/fixtures/wild/MANIFEST.md`. A file's digest is the sha256 of its bytes; a
 * directory's is the sha256 of the `sha256sum`-style listing of every file under it
 * (`<hex>  <relative/path>\n`), sorted by path — so either can be checked with coreutils.
 */

export interface ManifestRow {
  readonly file: string
  readonly repository: string
  readonly path: string
  readonly commit: string
  readonly licence: string
  readonly sha256: string
  readonly harness: string
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex')

function filesUnder(dir: string): string[] {
  const files: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) files.push(...filesUnder(path))
    else files.push(path)
  }
  return files
}

/** The digest of a corpus entry, as its manifest row states it. */
export function entryDigest(path: string): string {
  if (!statSync(path).isDirectory()) return sha256(readFileSync(path))
  const listing = filesUnder(path)
    .map((file) => relative(path, file).split(sep).join('/'))
    .sort()
    .map((name) => `${sha256(readFileSync(join(path, name)))}  ${name}\n`)
    .join('')
  return sha256(listing)
}

/** The entry a row names: its first column up to a space (`dir/ (directory: …)` names `dir`). */
export function rowEntry(row: ManifestRow): string {
  return (row.file.split(' ')[0] as string).replace(/\/$/, '')
}

/** The rows of one folder's table; the first 64-hex run of the digest column is the digest. */
export function readManifestRows(text: string): ManifestRow[] {
  const rows: ManifestRow[] = []
  for (const line of text.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| file ') || line.startsWith('|---')) continue
    const cells = line.slice(2, -2).split(' | ')
    if (cells.length < 7) continue
    const [file, repository, path, commit, licence, digest, ...harness] = cells as [string, string, string, string, string, string, ...string[]]
    rows.push({ file, repository, path, commit, licence, sha256: /[0-9a-f]{64}/.exec(digest)?.[0] ?? digest, harness: harness.join(' | ') })
  }
  return rows
}

/** The corpus folders, sorted. */
export function wildFolders(wild: string): string[] {
  return readdirSync(wild)
    .filter((name) => statSync(join(wild, name)).isDirectory())
    .sort()
}

/** `test/fixtures/wild/MANIFEST.md`: every folder's rows in one table, with counts, from the folders' own manifests. */
export function renderCorpusManifest(wild: string): string {
  const lines = [
    '# The corpus of real transcripts',
    '',
    'Transcripts that real harnesses wrote, copied byte for byte from public repositories whose licence',
    'allows redistribution. Each folder is one transcript format and has its own MANIFEST.md (with notes on',
    'how each source captured or redacted its files); `test/unit/wild/<folder>.test.ts` walks it, counting',
    "every entry's tool calls from its raw bytes and judging the reader against that count, and",
    '`test/unit/wild/manifest.test.ts` checks every digest below. A directory entry\'s digest is the sha256',
    'of the sorted `sha256sum` listing of its files (`<hex>  <relative/path>`). This page is generated:',
    '`npm run generate:wild-manifest`.',
    '',
    '| folder | entries |',
    '|---|---|',
  ]
  let total = 0
  for (const folder of wildFolders(wild)) {
    const rows = readManifestRows(readFileSync(join(wild, folder, 'MANIFEST.md'), 'utf8'))
    total += rows.length
    lines.push(`| [${folder}](${folder}/MANIFEST.md) | ${rows.length} |`)
  }
  lines.push(`| **all** | **${total}** |`, '', '| folder | file | repository | path | commit | licence | sha256 | harness + version |', '|---|---|---|---|---|---|---|---|')
  for (const folder of wildFolders(wild)) {
    for (const row of readManifestRows(readFileSync(join(wild, folder, 'MANIFEST.md'), 'utf8'))) {
      lines.push(`| ${folder} | ${rowEntry(row)} | ${row.repository} | ${row.path} | ${row.commit} | ${row.licence} | ${row.sha256} | ${row.harness} |`)
    }
  }
  return lines.join('\n') + '\n'
}
