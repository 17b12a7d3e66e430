import { utf8Length } from '../trace/rust-format.js'
import type { Clip } from './model.js'

/** How much of one text the report embeds; the rest is named by its size. Keeps a typical run's page small. */
export const CLIP_CHARS = 8 * 1024

/** The text, cut at `limit` characters (never inside a surrogate pair), with its full size. */
export function clip(text: string, limit: number = CLIP_CHARS): Clip {
  const bytes = utf8Length(text)
  if (text.length <= limit) return { text, bytes, truncated: false }
  let end = limit
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return { text: text.slice(0, end), bytes, truncated: true }
}
