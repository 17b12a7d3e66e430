import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { basename, isAbsolute, join, relative, sep } from 'node:path'
import { sha256Hex } from '../events/digest.js'

/**
 * What a record's provenance says about the run that minted it, in the only spellings AEP's
 * `Provenance` accepts: `tool` and `environment` are kebab-case identifiers (a version's dots
 * become hyphens), `revision` and `workspace` are free text.
 */
export interface RunProvenance {
  /** `vitest-harness/0-1-0`: the tool and its version (a ToolRef's last segment may not be numeric). */
  readonly tool: string
  /** The commit, with `-dirty` when tracked files had changes; absent outside a git work tree. */
  readonly revision?: string
  /** The package name at the root, or the root folder's name. */
  readonly workspace: string
  /** `node-20-20-0-linux-x64-vitest-4-1-12`: where the checks ran. */
  readonly environment: string
}

/** Lower-case kebab-case: every run of other characters becomes one hyphen. */
export function kebab(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** `<name>/<version as kebab>`, a dotted identifier AEP reads as a tool. */
export function toolRef(name: string, version: string): string {
  const spelled = kebab(version)
  if (spelled.length === 0) return kebab(name)
  // A bare number would read as a version reference (`tool/2`), which AEP reserves.
  return `${kebab(name)}/${/^[0-9]+$/.test(spelled) ? `v${spelled}` : spelled}`
}

/** The environment name: runtime, OS, CPU and the test runner's version. */
export function environmentName(parts: { node: string; platform: string; arch: string; vitest: string }): string {
  return kebab(`node ${parts.node.replace(/^v/, '')} ${parts.platform} ${parts.arch} vitest ${parts.vitest}`)
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim()
  } catch {
    return undefined
  }
}

/** `git rev-parse HEAD`, with `-dirty` when a tracked file differs from it; `undefined` outside git. */
export function gitRevision(root: string): string | undefined {
  const head = git(root, ['rev-parse', 'HEAD'])
  if (!head || !/^[0-9a-f]{7,64}$/.test(head)) return undefined
  const status = git(root, ['status', '--porcelain', '--untracked-files=no'])
  return status === undefined ? head : status.length > 0 ? `${head}-dirty` : head
}

/** The `name` in `<root>/package.json`, or the folder's own name. */
export function workspaceName(root: string): string {
  const manifest = join(root, 'package.json')
  if (existsSync(manifest)) {
    try {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name
      if (typeof name === 'string' && name.length > 0) return name
    } catch {
      // An unreadable manifest names nothing; the folder name still does.
    }
  }
  return basename(root)
}

/** A path as provenance writes it: relative to the root with `/`, or as given when outside it. */
export function provenancePath(root: string, path: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/')
  const inside = relative(root, path)
  return inside.startsWith('..') || isAbsolute(inside) ? path : inside.split(sep).join('/')
}

/**
 * The digest of the inputs: SHA-256 of the `sha256sum` listing of the readable ones
 * (`<hex>  <path>\n` per file, in the given order) — `sha256sum FILE… | sha256sum` from the root
 * reproduces it. `undefined` when none is readable.
 */
export function inputsDigest(root: string, inputs: readonly string[]): string | undefined {
  let listing = ''
  for (const input of inputs) {
    const path = isAbsolute(input) ? input : join(root, input)
    try {
      listing += `${sha256Hex(readFileSync(path))}  ${input}\n`
    } catch {
      // A virtual or deleted module has no bytes to vouch for.
    }
  }
  return listing.length > 0 ? sha256Hex(listing) : undefined
}
