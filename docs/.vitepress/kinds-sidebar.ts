import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** One sidebar entry per generated kind page, in the kinds' published (sorted) order. */
export function traceSpecKindSidebar(): { text: string; link: string }[] {
  const dir = fileURLToPath(new URL('../reference/trace-spec-kinds/', import.meta.url))
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && name !== 'index.md')
    .sort()
    .map((name) => ({ text: name.slice(0, -'.md'.length), link: `/reference/trace-spec-kinds/${name.slice(0, -'.md'.length)}` }))
}
