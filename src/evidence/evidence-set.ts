import { randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync, type Stats } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { sha256Hex } from '../events/digest.js'
import { writeFileAtomic } from '../util/atomic-write.js'
import { EvidenceError } from './errors.js'
import { EVIDENCE_SET_MANIFEST, SET_FILE_NAME, evidenceSetManifest, evidenceSetManifestSchema, renderEvidenceSetManifest, type EvidenceSetFile, type EvidenceSetManifest } from './set-manifest.js'

/*
 * An evidence set is written whole and swapped in with one rename(2), so a reader of `outDir`
 * sees the previous complete set or the new complete set — never a subset, whatever kills the
 * writer and however many runs share the folder:
 *
 *   <outDir>              a symlink → <name>.sets/<run-id>   (replaced by renaming a new symlink over it)
 *   <outDir>.sets/<id>/   one folder per run: the documents, then evidence-set.json, written last
 *
 * 1. The documents go into a fresh `<outDir>.sets/<run-id>/` (same filesystem as `outDir`), then
 *    the manifest — so a set without a manifest was never finished and is never swapped in.
 * 2. A symlink to the new set is made beside `outDir` and renamed over it: atomic, on POSIX.
 * 3. Sets nobody can swap in any more are removed: this process's older ones, and those of
 *    writers on this host that are dead. A live writer's set is never touched, so two runs sharing
 *    `outDir` each swap a complete set in and the last rename wins. A set holding a file its
 *    manifest does not list (someone wrote into `outDir` by hand) is kept, not deleted.
 *
 * A plain folder at `outDir` (an older layout) is moved aside once, the only moment `outDir` is
 * briefly absent; when it holds anything but this reporter's files it is kept as
 * `<outDir>.sets/legacy-<run-id>`.
 */

/** Files of the older layout the reporter wrote itself, and temporary files of an atomic write. */
const REPORTER_FILE = /^((trace_conformance|test_result|contract_result)\..+\.(evidence\.(yaml|json)|line\.json)|\..+\.tmp)$/

/** Where the sets of `outDir` live. */
export function setsFolder(outDir: string): string {
  return `${resolve(outDir)}.sets`
}

const HOST = sha256Hex(hostname()).slice(0, 8)

/**
 * A run id that sorts by start time and names its writer: epoch ms (13 digits), a digest of the
 * host, the pid, and randomness so two writers in one millisecond never share a folder.
 */
export function newRunId(now: number = Date.now(), pid: number = process.pid): string {
  return `${String(now).padStart(13, '0')}-${HOST}-${pid}-${randomBytes(4).toString('hex')}`
}

function writerOf(runId: string): { host: string; pid: number } | undefined {
  const match = /^\d{13}-([0-9a-f]{8})-(\d+)-[0-9a-f]{8}$/.exec(runId)
  return match ? { host: match[1] as string, pid: Number(match[2]) } : undefined
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists and is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** The run id of the set `outDir` points at, or `undefined` when it is not a set's symlink. */
export function currentSetId(outDir: string): string | undefined {
  try {
    const target = readlinkSync(outDir)
    return dirname(resolve(dirname(resolve(outDir)), target)) === setsFolder(outDir) ? basename(target) : undefined
  } catch {
    return undefined
  }
}

/** What a swap did besides putting the new set in place, in sentences the reporter logs. */
export interface EvidenceSetWritten {
  readonly dir: string
  readonly manifest: EvidenceSetManifest
  /** The run id `outDir` pointed at before, if it was a set. */
  readonly replaced?: string
  readonly notes: readonly string[]
}

/** Test seams: called after each step, so a test can stop the writer between any two of them. */
export interface EvidenceSetHooks {
  readonly afterFile?: (name: string) => void
  readonly afterManifest?: () => void
}

/** Moves a plain folder at `outDir` out of the way; returns a note when anything of the user's was kept. */
function moveLegacyFolder(outDir: string, runId: string): string | undefined {
  let names: string[] = []
  try {
    names = readdirSync(outDir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const legacy = join(setsFolder(outDir), `legacy-${runId}`)
  try {
    renameSync(outDir, legacy)
  } catch (error) {
    // Another run moved it first.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if (names.every((name) => REPORTER_FILE.test(name))) {
    rmSync(legacy, { recursive: true, force: true })
    return undefined
  }
  return `${outDir} was a plain folder holding files this reporter did not write; it is kept as ${legacy}`
}

/** Points `outDir` at the set `runId`: a new symlink renamed over the old one. */
function swapIn(outDir: string, runId: string, notes: string[]): void {
  const parent = dirname(outDir)
  const link = join(parent, `.${basename(outDir)}.${runId}.link`)
  symlinkSync(relative(parent, join(setsFolder(outDir), runId)), link, 'dir')
  for (let attempt = 0; ; attempt++) {
    const existing = lstatOrUndefined(outDir)
    if (existing?.isDirectory()) {
      const note = moveLegacyFolder(outDir, runId)
      if (note) notes.push(note)
      continue
    }
    if (existing && !existing.isSymbolicLink()) {
      rmSync(link, { force: true })
      throw new EvidenceError('VH_EVIDENCE_SET', `${outDir} is a file, not an evidence folder; move it away or choose another outDir`)
    }
    try {
      renameSync(link, outDir)
      return
    } catch (error) {
      // A plain folder appeared between the look and the rename (another run of the older layout).
      const code = (error as NodeJS.ErrnoException).code
      if (attempt < 5 && (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST')) continue
      rmSync(link, { force: true })
      throw error
    }
  }
}

function manifestOf(dir: string): EvidenceSetManifest | undefined {
  try {
    const parsed = evidenceSetManifestSchema.safeParse(JSON.parse(readFileSync(join(dir, EVIDENCE_SET_MANIFEST), 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** The names in a folder, or undefined when it is gone (another writer pruned the same dead set first). */
function namesIn(dir: string): string[] | undefined {
  try {
    return readdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Whether a set holds exactly what its manifest lists, so removing it removes nothing of anyone's. */
function holdsOnlyItsOwn(names: readonly string[], manifest: EvidenceSetManifest): boolean {
  return names.every((name) => name === EVIDENCE_SET_MANIFEST || Object.hasOwn(manifest.documents, name))
}

/** Removes sets no writer can swap in any more; never the current one, never a live writer's. */
function pruneSets(outDir: string, ownId: string, notes: string[]): void {
  const sets = setsFolder(outDir)
  const me = writerOf(ownId)
  for (const name of namesIn(sets) ?? []) {
    if (name === ownId || name.startsWith('legacy-')) continue
    const writer = writerOf(name)
    if (!writer || !me || writer.host !== me.host) continue
    if (writer.pid !== me.pid && isAlive(writer.pid)) continue
    // Read just before removing: a dead writer cannot swap its set in after this look.
    if (currentSetId(outDir) === name) continue
    const dir = join(sets, name)
    const names = namesIn(dir)
    if (names === undefined) continue
    const manifest = manifestOf(dir)
    if (manifest && !holdsOnlyItsOwn(names, manifest)) {
      notes.push(`${dir} holds files its manifest does not list; it is kept`)
      continue
    }
    rmSync(dir, { recursive: true, force: true })
  }
  // Symlinks a killed writer left beside outDir before it could rename them.
  const parent = dirname(outDir)
  const prefix = `.${basename(outDir)}.`
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix) || !name.endsWith('.link')) continue
    const writer = writerOf(name.slice(prefix.length, -'.link'.length))
    if (writer && me && writer.host === me.host && writer.pid !== me.pid && !isAlive(writer.pid)) rmSync(join(parent, name), { force: true })
  }
}

/**
 * Writes `files` as the evidence set of run `runId` and swaps it in at `outDir` (see the layout
 * above): the documents, the manifest last, one rename. Returns the manifest and what it replaced.
 */
export function writeEvidenceSet(outDir: string, runId: string, files: readonly EvidenceSetFile[], hooks: EvidenceSetHooks = {}): EvidenceSetWritten {
  const target = resolve(outDir)
  const seen = new Set<string>()
  for (const file of files) {
    if (!SET_FILE_NAME.test(file.name) || file.name === EVIDENCE_SET_MANIFEST) throw new EvidenceError('VH_EVIDENCE_SET', `cannot write ${JSON.stringify(file.name)} into an evidence set: a set holds plain file names, and ${EVIDENCE_SET_MANIFEST} is the manifest's`)
    if (seen.has(file.name)) throw new EvidenceError('VH_EVIDENCE_SET', `two documents of one evidence set are both named ${file.name}`)
    seen.add(file.name)
  }
  const dir = join(setsFolder(target), runId)
  mkdirSync(setsFolder(target), { recursive: true })
  mkdirSync(dir)
  for (const file of files) {
    writeFileSync(join(dir, file.name), file.bytes)
    hooks.afterFile?.(file.name)
  }
  const manifest = evidenceSetManifest(runId, files)
  writeFileAtomic(join(dir, EVIDENCE_SET_MANIFEST), renderEvidenceSetManifest(manifest))
  hooks.afterManifest?.()
  const notes: string[] = []
  const replaced = currentSetId(target)
  swapIn(target, runId, notes)
  pruneSets(target, runId, notes)
  return { dir, manifest, ...(replaced === undefined ? {} : { replaced }), notes }
}
