import { closeSync, existsSync, ftruncateSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { writeFileAtomic } from '../../src/util/atomic-write.js'
import { cassetteHeaderLine, completeLine, interactionLines, serializeCassette, type Cassette, type CassetteContent, type CassetteHeader, type Interaction } from './cassette.js'
import { isProcessAlive } from './process-alive.js'
import { Redactor } from './redact.js'

/** The file operations a cassette writer uses: node's, or a test's counting double. */
export interface CassetteFiles {
  /** Replaces the file whole: a reader sees the old bytes or the new ones. */
  writeFileAtomic(path: string, data: Buffer): void
  /** Writes `data` at byte `position` and ends the file there. */
  writeAt(path: string, data: Buffer, position: number): void
  readFile(path: string): Buffer | undefined
}

export const NODE_CASSETTE_FILES: CassetteFiles = {
  writeFileAtomic,
  writeAt(path, data, position) {
    const fd = openSync(path, 'r+')
    try {
      let written = 0
      while (written < data.length) written += writeSync(fd, data, written, data.length - written, position + written)
      ftruncateSync(fd, position + data.length)
    } finally {
      closeSync(fd)
    }
  },
  readFile: (path) => (existsSync(path) ? readFileSync(path) : undefined),
}

/**
 * Removes the temporary files an earlier write of this cassette left behind (`.<name>.<pid>.<n>.tmp`,
 * as an atomic write names them) when the process that made them is gone or is this one.
 */
export function removeTmpLeftovers(cassette: string): string[] {
  const dir = dirname(cassette)
  const name = basename(cassette)
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const entry of entries) {
    if (!entry.startsWith(`.${name}.`) || !entry.endsWith('.tmp')) continue
    const pid = /^(\d+)\.\d+$/.exec(entry.slice(name.length + 2, -'.tmp'.length))?.[1]
    if (pid === undefined) continue
    if (Number(pid) !== process.pid && isProcessAlive(Number(pid))) continue
    try {
      unlinkSync(join(dir, entry))
      removed.push(entry)
    } catch {
      // gone already
    }
  }
  return removed
}

/** Writes a whole cassette so a reader sees the old file or the new one, never half of either. */
export function writeCassette(path: string, cassette: CassetteContent | Cassette, redactor: Redactor = new Redactor(), files: CassetteFiles = NODE_CASSETTE_FILES): void {
  const bytes = Buffer.from(serializeCassette(cassette, redactor), 'utf8')
  removeTmpLeftovers(path)
  if (files.readFile(path)?.equals(bytes)) return
  files.writeFileAtomic(path, bytes)
}

export interface CassetteAppenderOptions {
  /** The cassette already on disk that this recording continues (`auto`); absent: the first append replaces the file. */
  readonly continues?: CassetteContent
  readonly redactor?: Redactor
  readonly files?: CassetteFiles
}

/**
 * Records a cassette interaction by interaction. The first append writes the header, the interaction
 * and the `complete` line (replacing any older file atomically); each later one writes its lines over
 * the old `complete` line and a new one after them: the bytes before stay as they were, so recording
 * n interactions writes O(n) bytes, and the file on disk is always a whole cassette.
 */
export class CassetteAppender {
  private count: number
  /** Where the `complete` line starts, once the file is ours. */
  private end: number | undefined
  private readonly redactor: Redactor
  private readonly files: CassetteFiles

  constructor(
    readonly path: string,
    private readonly header: CassetteHeader,
    private readonly options: CassetteAppenderOptions = {},
  ) {
    this.count = options.continues?.interactions.length ?? 0
    this.redactor = options.redactor ?? new Redactor()
    this.files = options.files ?? NODE_CASSETTE_FILES
  }

  /** How many interactions the file holds. */
  get interactions(): number {
    return this.count
  }

  append(interaction: Interaction): void {
    const block = Buffer.from(interactionLines(interaction, this.count + 1, this.redactor), 'utf8')
    const trailer = Buffer.from(completeLine(this.count + 1), 'utf8')
    if (this.end === undefined) this.end = this.start(block, trailer)
    else this.files.writeAt(this.path, Buffer.concat([block, trailer]), this.end)
    this.end += block.length
    this.count += 1
  }

  /** The first write: returns where the new interaction starts. */
  private start(block: Buffer, trailer: Buffer): number {
    removeTmpLeftovers(this.path)
    const continues = this.options.continues
    if (continues) {
      const existing = this.files.readFile(this.path)
      const oldTrailer = Buffer.from(completeLine(continues.interactions.length), 'utf8')
      if (existing && existing.subarray(existing.length - oldTrailer.length).equals(oldTrailer)) {
        const at = existing.length - oldTrailer.length
        this.files.writeAt(this.path, Buffer.concat([block, trailer]), at)
        return at
      }
      // Not in the writer's own layout (edited by hand?): written once in full, appended to after.
      const head = Buffer.from(serializeCassette(continues, this.redactor), 'utf8')
      const at = head.length - oldTrailer.length
      this.files.writeFileAtomic(this.path, Buffer.concat([head.subarray(0, at), block, trailer]))
      return at
    }
    const head = Buffer.from(cassetteHeaderLine(this.header), 'utf8')
    this.files.writeFileAtomic(this.path, Buffer.concat([head, block, trailer]))
    return head.length
  }
}
