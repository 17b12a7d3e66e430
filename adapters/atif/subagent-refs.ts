import { asArray, asObject, asString, type JsonObject } from '../shared/fields.js'

/** A subagent trajectory a step's observation points to, and the call whose result holds the pointer. */
export interface SubagentRef {
  readonly callId: string
  /** What names it: its `trajectory_id`, `session_id` or `trajectory_path`. */
  readonly name: string
}

function refsOfSteps(steps: readonly unknown[] | undefined): { callId: string; ref: JsonObject }[] {
  const out: { callId: string; ref: JsonObject }[] = []
  for (const step of steps ?? []) {
    for (const result of asArray(asObject(asObject(step)?.['observation'])?.['results']) ?? []) {
      const object = asObject(result)
      for (const ref of asArray(object?.['subagent_trajectory_ref']) ?? []) {
        const refObject = asObject(ref)
        if (refObject) out.push({ callId: asString(object?.['source_call_id']) ?? '?', ref: refObject })
      }
    }
  }
  return out
}

/**
 * The subagent trajectories the document points to but does not hold: a `subagent_trajectory_ref`
 * naming neither the `trajectory_id` nor the `session_id` of an entry of `subagent_trajectories`
 * (v1.7). Their steps, and so their calls, are in another file.
 */
export function externalSubagentRefs(root: JsonObject): SubagentRef[] {
  const embedded = new Set<string>()
  const subagents = asArray(root['subagent_trajectories']) ?? []
  for (const subagent of subagents) {
    const object = asObject(subagent)
    for (const key of ['trajectory_id', 'session_id']) {
      const id = asString(object?.[key])
      if (id !== undefined) embedded.add(id)
    }
  }
  const refs = [...refsOfSteps(asArray(root['steps'])), ...subagents.flatMap((subagent) => refsOfSteps(asArray(asObject(subagent)?.['steps'])))]
  const external: SubagentRef[] = []
  for (const { callId, ref } of refs) {
    const ids = ['trajectory_id', 'session_id'].flatMap((key) => asString(ref[key]) ?? [])
    if (ids.some((id) => embedded.has(id))) continue
    external.push({ callId, name: ids[0] ?? asString(ref['trajectory_path']) ?? '?' })
  }
  return external
}
