import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs'

/**
 * Every non-transcript file a user names (specs, evidence, step maps, workflows, vector records,
 * scenarios, cassettes) is read through here, so none can cost more than its limit: a directory,
 * socket or block device is refused before it is opened, a regular file over the limit before a
 * byte is read, and a pipe, `<(…)` or character device (`/dev/stdin`, `/dev/zero`) is read in
 * chunks up to the limit (where `readFileSync` would fail with ESPIPE or never end).
 */

export type InputErrorCode = 'VH_INPUT_MISSING' | 'VH_INPUT_NOT_A_FILE' | 'VH_INPUT_TOO_LARGE' | 'VH_INPUT_UNREADABLE'

/** A user-named input refused before it was parsed: a code, the file, and a sentence. */
export class InputError extends Error {
  constructor(
    readonly code: InputErrorCode,
    /** The file as the user named it. */
    readonly file: string,
    readonly sentence: string,
  ) {
    super(`${code} at ${file}: ${sentence}`)
    this.name = 'InputError'
  }
}

const MIB = 1024 * 1024
const PAUSE = new Int32Array(new SharedArrayBuffer(4))

/** The default byte limit of each kind of input; a caller may pass its own `maxBytes`. */
// Hand-written documents (specs, step maps, workflows, vector manifests, scenarios) are kilobytes:
// 1 MiB bounds what parsing one can cost (`yaml` spends seconds and hundreds of MB on 100k keys).
export const INPUT_LIMITS = {
  spec: 1 * MIB,
  stepMap: 1 * MIB,
  workflow: 1 * MIB,
  evidence: 512 * MIB,
  vectorManifest: 1 * MIB,
  vector: 64 * MIB,
  scenario: 1 * MIB,
  cassette: 256 * MIB,
  traceReport: 64 * MIB,
  requestLog: 256 * MIB,
} as const

/** The environment variable that raises (or lowers) every limit above, in MiB. */
export const MAX_INPUT_ENV = 'VITEST_HARNESS_MAX_INPUT_MB'

export interface ReadInputOptions {
  /** The largest input accepted, in bytes. */
  maxBytes: number
  /** What the file is, for the sentence (`specification`, `step map`…). */
  what: string
  /** The name the user gave, when `path` was resolved from it. Default: `path`. */
  shownAs?: string
  /** Where to read the override variable from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
}

function effectiveLimit(options: ReadInputOptions): number {
  const raw = (options.env ?? process.env)[MAX_INPUT_ENV]
  const mib = raw === undefined ? Number.NaN : Number(raw)
  return Number.isFinite(mib) && mib > 0 ? Math.floor(mib * MIB) : options.maxBytes
}

function describeBytes(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1)} MiB` : `${bytes} bytes`
}

function tooLarge(shown: string, what: string, limit: number): InputError {
  return new InputError('VH_INPUT_TOO_LARGE', shown, `the ${what} is larger than the ${describeBytes(limit)} limit; set ${MAX_INPUT_ENV} (in MiB) to raise it`)
}

function kindOf(stats: Stats): string | undefined {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isSocket()) return 'a socket'
  if (stats.isBlockDevice()) return 'a block device'
  return undefined
}

/** Refuses what is not a readable file, before anything is opened: a coded error naming the file. */
export function checkInputFile(path: string, options: Pick<ReadInputOptions, 'what' | 'shownAs'>): Stats {
  const shown = options.shownAs ?? path
  let stats: Stats
  try {
    stats = statSync(path)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputError('VH_INPUT_MISSING', shown, `cannot read the ${options.what}: no such file`)
    throw new InputError('VH_INPUT_UNREADABLE', shown, `cannot read the ${options.what}: ${typeof code === 'string' ? code : 'the file cannot be opened'}`)
  }
  const kind = kindOf(stats)
  if (kind) throw new InputError('VH_INPUT_NOT_A_FILE', shown, `cannot read the ${options.what}: it is ${kind}, not a file`)
  return stats
}

/** Reads a whole user-named input, never more than its limit. */
export function readBoundedFile(path: string, options: ReadInputOptions): Buffer {
  const shown = options.shownAs ?? path
  const limit = effectiveLimit(options)
  const before = checkInputFile(path, options)
  if (before.isFile() && before.size > limit) throw tooLarge(shown, options.what, limit)
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new InputError('VH_INPUT_UNREADABLE', shown, `cannot read the ${options.what}: ${typeof code === 'string' ? code : 'the file cannot be opened'}`)
  }
  try {
    const stats = fstatSync(fd)
    const kind = kindOf(stats)
    if (kind) throw new InputError('VH_INPUT_NOT_A_FILE', shown, `cannot read the ${options.what}: it is ${kind}, not a file`)
    const chunks: Buffer[] = []
    let total = 0
    const chunkSize = stats.isFile() ? Math.min(Math.max(stats.size + 1, 1), limit + 1, 16 * MIB) : 64 * 1024
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(chunkSize, limit + 1 - total))
      let read: number
      try {
        // position null: read where the descriptor stands, which is all a pipe allows.
        read = readSync(fd, chunk, 0, chunk.length, null)
      } catch (error) {
        const code = (error as { code?: unknown }).code
        if (code === 'EAGAIN') {
          // A non-blocking descriptor (an inherited stdin) with nothing yet: wait briefly, as a blocking read would.
          Atomics.wait(PAUSE, 0, 0, 10)
          continue
        }
        throw new InputError('VH_INPUT_UNREADABLE', shown, `cannot read the ${options.what}: ${typeof code === 'string' ? code : 'a read failed'}`)
      }
      if (read === 0) break
      const nul = stats.isFile() ? -1 : chunk.subarray(0, read).indexOf(0)
      // Every document read here is text (YAML, JSON, JSONL), where a NUL byte is never allowed: a
      // stream that sends one (`/dev/zero`, a binary pipe) is refused now, not after its whole limit.
      if (nul !== -1) throw new InputError('VH_INPUT_UNREADABLE', shown, `the ${options.what} holds a NUL byte at offset ${total + nul}: it is not a text document`)
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read))
      total += read
      if (total > limit) throw tooLarge(shown, options.what, limit)
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total)
  } finally {
    closeSync(fd)
  }
}

/** As `readBoundedFile`, decoded as UTF-8. */
export function readBoundedText(path: string, options: ReadInputOptions): string {
  return readBoundedFile(path, options).toString('utf8')
}
