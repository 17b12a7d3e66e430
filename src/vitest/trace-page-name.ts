import { join } from 'node:path'
import { sha256Hex } from '../events/digest.js'

/*
 * Shared by the worker that writes a check's page and the reporter that indexes it: the page of a
 * check is named by its key (spec, transcript, downgrades, reader), so every suite of one check
 * writes one page and the index finds it without the workers telling it where.
 */

/** The index page's file name inside the pages folder. */
export const TRACE_PAGES_INDEX = 'index.html'

/** Every file name this feature writes, so a new run clears only its own pages. */
export const TRACE_PAGE_FILE = /^(trace-[0-9a-f]{16}\.html|index\.html)$/

/** `trace-<16 hex>.html`: the page of the check with this key. */
export function tracePageName(key: string): string {
  return `trace-${sha256Hex(key).slice(0, 16)}.html`
}

export function tracePagePath(dir: string, key: string): string {
  return join(dir, tracePageName(key))
}
