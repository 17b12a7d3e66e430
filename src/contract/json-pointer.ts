/** The value at a JSON pointer (RFC 6901), or `undefined` when the path does not exist. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document
  let current: unknown = document
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined
      current = current[Number(token)]
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token]
    } else {
      return undefined
    }
  }
  return current
}
