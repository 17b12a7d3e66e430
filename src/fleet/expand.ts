import { existsSync, readdirSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { TranscriptError } from '../../adapters/errors.js'

/**
 * The transcripts a fleet names: each argument is a file, a directory (every `.jsonl` and `.json`
 * file under it, each one transcript) or a glob (`*` and `?` within a path segment, `**` across
 * segments, `[abc]` a set; a directory a glob matches is one transcript, read by Reef's rules,
 * except under a final `**`, which names the transcript files below as a directory does).
 * The list is sorted by code point and deduplicated, so every machine of a sharded run sees the
 * same fleet in the same order.
 */

const TRANSCRIPT_EXTENSIONS = ['.jsonl', '.json']

function isGlob(segment: string): boolean {
  return /[*?[]/.test(segment)
}

/** One path segment's pattern as an anchored regular expression. */
function segmentPattern(segment: string): RegExp {
  let source = ''
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] as string
    if (char === '*') source += '[^/]*'
    else if (char === '?') source += '[^/]'
    else if (char === '[') {
      const close = segment.indexOf(']', i + 2)
      if (close === -1) source += '\\['
      else {
        const body = segment.slice(i + 1, close)
        source += `[${body.startsWith('!') ? `^${body.slice(1).replace(/[\\\]^]/g, '\\$&')}` : body.replace(/[\\\]^]/g, '\\$&')}]`
        i = close
      }
    } else source += char.replace(/[.+^${}()|\\/]/g, '\\$&')
  }
  // A leading dot is matched only by a pattern that names it, as shells do.
  return new RegExp(segment.startsWith('.') ? `^${source}$` : `^(?!\\.)${source}$`)
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** Every transcript file under a directory, depth first, names in code-point order. */
function filesUnder(dir: string, out: string[]): void {
  for (const name of entries(dir)) {
    const path = join(dir, name)
    if (isDirectory(path)) filesUnder(path, out)
    else if (TRANSCRIPT_EXTENSIONS.some((extension) => name.endsWith(extension))) out.push(path)
  }
}

/** The paths a glob's remaining segments match below `base`. */
function matchSegments(base: string, segments: readonly string[], out: string[]): void {
  const [segment, ...rest] = segments
  if (segment === undefined) {
    if (existsSync(base)) out.push(base)
    return
  }
  if (segment === '**' && rest.length === 0) {
    // `runs/**` is everything under runs: its transcript files, as the directory `runs` names them.
    // Matched as directories, each folder would be read again as one transcript beside its files.
    filesUnder(base, out)
    return
  }
  if (segment === '**') {
    // Zero directories, then one more at every depth.
    matchSegments(base, rest, out)
    for (const name of entries(base)) {
      const path = join(base, name)
      if (!name.startsWith('.') && isDirectory(path)) matchSegments(path, segments, out)
    }
    return
  }
  if (!isGlob(segment)) {
    matchSegments(join(base, segment), rest, out)
    return
  }
  const pattern = segmentPattern(segment)
  for (const name of entries(base)) {
    if (!pattern.test(name)) continue
    const path = join(base, name)
    if (rest.length === 0 || isDirectory(path)) matchSegments(path, rest, out)
  }
}

/** The transcripts one argument names, as absolute paths. */
function expandOne(argument: string, cwd: string): string[] {
  const full = resolve(cwd, argument)
  const segments = (isAbsolute(argument) ? argument : join(cwd, argument)).split(/[\\/]+/)
  if (!segments.some(isGlob)) {
    if (!existsSync(full)) throw new TranscriptError('VH_TRANSCRIPT_MISSING', argument, null, 'no such file or directory')
    if (!isDirectory(full)) return [full]
    const out: string[] = []
    filesUnder(full, out)
    return out
  }
  const first = segments.findIndex(isGlob)
  const root = segments.slice(0, first).join(sep) || sep
  const out: string[] = []
  matchSegments(root, segments.slice(first), out)
  return out
}

/**
 * Expands fleet arguments into the transcripts they name, relative to `cwd`. A glob that matches
 * nothing, or a directory with no transcript in it, is a `TranscriptError` (`VH_FLEET_EMPTY`): a
 * fleet that silently checks nothing would pass.
 */
export function expandTranscriptArguments(patterns: readonly string[], cwd: string): string[] {
  const seen = new Set<string>()
  for (const pattern of patterns) {
    const matched = expandOne(pattern, cwd)
    if (matched.length === 0) throw new TranscriptError('VH_FLEET_EMPTY', pattern, null, 'names no transcript: no file matches it')
    for (const path of matched) seen.add(path)
  }
  return [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** A path as a fleet reports it: relative to `cwd` where it lies below it. */
export function fleetLabel(path: string, cwd: string): string {
  const rel = relative(cwd, path)
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel
}
