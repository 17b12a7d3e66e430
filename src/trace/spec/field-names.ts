import type { z } from 'zod'

/*
 * The field names a strict object of the schema accepts at a document path, so an unknown field
 * can be answered with the nearest known one. zod's issue names the unknown key only; the known
 * ones come from walking the schema along the path (through optionals, arrays and every branch
 * of a union that can hold the next step).
 */

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  options?: readonly z.ZodType[]
  innerType?: z.ZodType
  element?: z.ZodType
  valueType?: z.ZodType
  in?: z.ZodType
  getter?: () => z.ZodType
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** The object schemas a schema stands for, optionals and unions opened. */
function objectsOf(schema: z.ZodType, depth = 0): z.ZodType[] {
  if (depth > 16) return []
  const def = defOf(schema)
  if (def.type === 'object') return [schema]
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => objectsOf(option, depth + 1))
  const inner = def.innerType ?? def.in ?? def.getter?.()
  return inner ? objectsOf(inner, depth + 1) : []
}

/** What a schema holds one step down the path (a key of an object, an item of an array). */
function stepInto(schema: z.ZodType, part: PropertyKey, depth = 0): z.ZodType[] {
  if (depth > 16) return []
  const def = defOf(schema)
  if (def.type === 'object') {
    const field = def.shape?.[String(part)]
    return field ? [field] : []
  }
  if (def.type === 'array') return typeof part === 'number' && def.element ? [def.element] : []
  if (def.type === 'record') return def.valueType ? [def.valueType] : []
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => stepInto(option, part, depth + 1))
  const inner = def.innerType ?? def.in ?? def.getter?.()
  return inner ? stepInto(inner, part, depth + 1) : []
}

/** Every field name an object at `path` may have, sorted; empty when the path reaches no object. */
export function fieldNamesAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current = [schema]
  for (const part of path) current = current.flatMap((candidate) => stepInto(candidate, part))
  const names = new Set<string>()
  for (const object of current.flatMap((candidate) => objectsOf(candidate))) for (const key of Object.keys(defOf(object).shape ?? {})) names.add(key)
  return [...names].sort()
}
