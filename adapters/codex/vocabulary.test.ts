import { describe, expect, it } from 'vitest'
import { convertLines, names } from '../../test/helpers/project.js'
import type { Emission } from '../../src/events/types.js'
import { VERSION_DRIFT } from '../shared/vocabulary.js'
import { CODEX_EXEC_JSON_VOCABULARY } from './exec-json-vocabulary.js'
import { CODEX_ROLLOUT_VOCABULARY } from './rollout-vocabulary.js'

const at = '2026-01-01T00:00:00.000Z'
const meta = (version: string) => ({ timestamp: at, type: 'session_meta', payload: { id: 'th', cwd: '/w', cli_version: version } })

/** The smallest record of a vocabulary key: `type`, or `type` with a payload of `subtype`. */
function rolloutRecord(key: string): unknown {
  const [type, subtype] = key.split('/')
  return { timestamp: at, type, payload: subtype === undefined ? {} : { type: subtype } }
}

function execRecord(key: string): unknown {
  const [type, subtype] = key.split('/')
  return subtype === undefined ? { type } : { type, item: { id: `i-${subtype}`, type: subtype } }
}

const opaque = (events: Emission[]) => events.filter((event) => event.event === 'opaque')
const drift = (events: Emission[]) => events.filter((event) => event.event === 'warning' && event.code === VERSION_DRIFT)

describe('the codex/rollout-jsonl vocabulary', () => {
  const keys = Object.keys(CODEX_ROLLOUT_VOCABULARY.records).filter((key) => key !== 'session_meta')

  it('lists the records of RolloutItem, ResponseItem and EventMsg the issue names', () => {
    for (const key of [
      'turn_context',
      'compacted',
      'world_state',
      'inter_agent_communication_metadata',
      'response_item/web_search_call',
      'response_item/tool_search_call',
      'response_item/image_generation_call',
      'response_item/local_shell_call',
      'event_msg/item_completed',
      'event_msg/exec_command_end',
      'event_msg/patch_apply_end',
      'event_msg/mcp_tool_call_end',
      'event_msg/web_search_end',
    ]) {
      expect(CODEX_ROLLOUT_VOCABULARY.records[key], key).toBeDefined()
    }
    // `event_msg` and `response_item` alone would make every unknown subtype known.
    expect(CODEX_ROLLOUT_VOCABULARY.records['event_msg']).toBeUndefined()
    expect(CODEX_ROLLOUT_VOCABULARY.records['response_item']).toBeUndefined()
  })

  it('reads every listed record, however bare: none comes out opaque, and a known version draws no drift warning', async () => {
    const events = await convertLines('codex/rollout-jsonl', [meta('0.169.0'), ...keys.map(rolloutRecord)])
    expect(opaque(events)).toEqual([])
    expect(drift(events)).toEqual([])
  })

  it('an unlisted record is opaque, and a rollout from an unknown version names it in the drift warning', async () => {
    const unknown = [
      { timestamp: at, type: 'event_msg', payload: { type: 'brand_new_event' } },
      { timestamp: at, type: 'future_record', payload: {} },
      { timestamp: at, type: 'response_item', payload: { type: 'hologram_call' } },
    ]
    const known = await convertLines('codex/rollout-jsonl', [meta('0.169.0'), ...unknown])
    expect(opaque(known).map((event) => event.event === 'opaque' && [event.vendor_type, event.vendor_subtype, event.source_line])).toEqual([
      ['event_msg', 'brand_new_event', 2],
      ['future_record', null, 3],
      ['response_item', 'hologram_call', 4],
    ])
    expect(drift(known)).toEqual([])

    const later = await convertLines('codex/rollout-jsonl', [meta('0.170.0'), ...unknown, unknown[0]])
    expect(drift(later)).toHaveLength(1)
    const warning = drift(later)[0]
    expect(warning?.event === 'warning' && warning.message).toBe(
      'written by codex-cli 0.170.0; the codex/rollout-jsonl reader was written against 0.47.*, 0.58.*, 0.63.*, 0.89.*, 0.93.*, 0.104.*, 0.116.*, 0.128.*, 0.133.*, 0.135.*, 0.145.*, 0.146.*, 0.169.*; record types it did not know: event_msg/brand_new_event (2), future_record (1), response_item/hologram_call (1)',
    )
    // Enriched, the vocabulary's drift warning stands in for upstream's pin warning.
    expect(later.filter((event) => event.event === 'warning' && event.code === 'version_outside_pin')).toEqual([])
  })

  it('a version it knows with no unknown record still says so when it drifts', async () => {
    const events = await convertLines('codex/rollout-jsonl', [meta('0.99.0'), { timestamp: at, type: 'turn_context', payload: { model: 'm' } }])
    expect(drift(events).map((event) => event.event === 'warning' && event.message)).toEqual([
      'written by codex-cli 0.99.0; the codex/rollout-jsonl reader was written against 0.47.*, 0.58.*, 0.63.*, 0.89.*, 0.93.*, 0.104.*, 0.116.*, 0.128.*, 0.133.*, 0.135.*, 0.145.*, 0.146.*, 0.169.*; every record type in it was known',
    ])
  })

  it('the upstream projection is left as upstream writes it: unlisted-by-upstream records stay opaque, no drift warning', async () => {
    const events = await convertLines('codex/rollout-jsonl', [meta('0.170.0'), { timestamp: at, type: 'turn_context', payload: {} }, { timestamp: at, type: 'world_state', payload: {} }], { seam: { projection: 'upstream' } })
    expect(names(events)).toEqual(['session.started', 'warning', 'opaque', 'opaque'])
    expect(events[1]).toMatchObject({ code: 'version_outside_pin' })
  })
})

describe('Codex built-in calls are calls', () => {
  it('web_search_call, tool_search_call, image_generation_call and local_shell_call each become a classified tool.requested', async () => {
    const events = await convertLines('codex/rollout-jsonl', [
      meta('0.169.0'),
      { timestamp: at, type: 'response_item', payload: { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'vitest pool' } } },
      { timestamp: at, type: 'response_item', payload: { type: 'tool_search_call', call_id: 'ts_1', status: 'completed', execution: 'local', arguments: { query: 'calendar' } } },
      { timestamp: at, type: 'response_item', payload: { type: 'tool_search_output', call_id: 'ts_1', status: 'completed', tools: [] } },
      { timestamp: at, type: 'response_item', payload: { type: 'image_generation_call', id: 'ig_1', status: 'failed', revised_prompt: 'an icon' } },
      { timestamp: at, type: 'response_item', payload: { type: 'local_shell_call', id: 'ls_1', call_id: null, status: 'completed', action: { type: 'exec', command: ['pytest', '-q'] } } },
    ])
    const calls = events.filter((event) => event.event === 'tool.requested')
    expect(calls.map((event) => event.event === 'tool.requested' && [event.call_id, event.name, event.operations ?? []])).toEqual([
      ['ws_1', 'web_search', ['web.read']],
      ['ts_1', 'tool_search', []],
      ['ig_1', 'image_generation', []],
      ['ls_1', 'local_shell', ['shell']],
    ])
    expect(calls[0]).toMatchObject({ input: { query: 'vitest pool', action: { type: 'search', query: 'vitest pool' } } })
    expect(calls[3]).toMatchObject({ subjects: ['proc:pytest'] })
    const results = events.filter((event) => event.event === 'tool.result')
    expect(results.map((event) => event.event === 'tool.result' && [event.call_id, event.is_error])).toEqual([
      ['ws_1', false],
      ['ts_1', false],
      ['ig_1', true],
    ])
    // tool_search and image_generation are inert, not unknown: no unclassified_tool warning.
    expect(events.filter((event) => event.event === 'warning')).toEqual([])
  })

  it('a tool no table knows is marked once, before its first call', async () => {
    const call = (id: string) => ({ timestamp: at, type: 'response_item', payload: { type: 'function_call', name: 'js_repl', arguments: '{}', call_id: id } })
    const events = await convertLines('codex/rollout-jsonl', [meta('0.169.0'), call('a'), call('b')])
    expect(names(events)).toEqual(['session.started', 'warning', 'tool.requested', 'tool.requested'])
    expect(events[1]).toMatchObject({ code: 'unclassified_tool' })
  })

  it('write_stdin is shell: it feeds a process exec_command left running', async () => {
    const events = await convertLines('codex/rollout-jsonl', [
      meta('0.169.0'),
      { timestamp: at, type: 'response_item', payload: { type: 'function_call', name: 'write_stdin', arguments: '{"session_id":3,"chars":"make test\\n"}', call_id: 'w1' } },
    ])
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ name: 'write_stdin', operations: ['shell'] })
  })

  it('the user’s words are one injection, though user_message and the completed UserMessage item both say them', async () => {
    const events = await convertLines('codex/rollout-jsonl', [
      meta('0.169.0'),
      { timestamp: at, type: 'event_msg', payload: { type: 'task_started' } },
      { timestamp: at, type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage', content: [{ type: 'text', text: 'run the tests' }] } } },
      { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: 'run the tests' } },
      { timestamp: at, type: 'event_msg', payload: { type: 'item_completed', item: { type: 'AgentMessage', content: [{ type: 'Text', text: 'done' }] } } },
      { timestamp: at, type: 'event_msg', payload: { type: 'task_started' } },
      { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: 'run the tests' } },
    ])
    expect(events.filter((event) => event.event === 'injection')).toEqual([
      { event: 'injection', text: 'run the tests', origin: 'user', at },
      { event: 'injection', text: 'run the tests', origin: 'user', at },
    ])
  })
})

describe('the codex/exec-json vocabulary', () => {
  const keys = Object.keys(CODEX_EXEC_JSON_VOCABULARY.records)

  it('reads every listed record: none comes out opaque', async () => {
    const events = await convertLines('codex/exec-json', keys.map(execRecord))
    expect(opaque(events)).toEqual([])
  })

  it('an unlisted item type is opaque, and named in the drift warning when the caller dates the stream to an unknown version', async () => {
    const lines = [{ type: 'thread.started', thread_id: 't' }, { type: 'item.started', item: { id: 'p', type: 'plan' } }, { type: 'item.completed', item: { id: 'p', type: 'plan' } }]
    const events = await convertLines('codex/exec-json', lines, { seam: { harnessVersion: '0.170.0' } })
    expect(opaque(events).map((event) => event.event === 'opaque' && `${event.vendor_type}/${event.vendor_subtype}`)).toEqual(['item.started/plan', 'item.completed/plan'])
    expect(drift(events).map((event) => event.event === 'warning' && event.message)).toEqual([
      'written by codex-cli 0.170.0; the codex/exec-json reader was written against 0.144.*, 0.169.*; record types it did not know: item.started/plan (1), item.completed/plan (1)',
    ])
    // The stream names no version of its own: undated, it draws no drift warning.
    expect(drift(await convertLines('codex/exec-json', lines))).toEqual([])
  })

  it('a file change is an edit whatever its kind, as the rollout’s apply_patch is; web search and todo lists are classified', async () => {
    const events = await convertLines('codex/exec-json', [
      { type: 'item.completed', item: { id: 'f1', type: 'file_change', changes: [{ path: 'new.ts', kind: 'add' }], status: 'completed' } },
      { type: 'item.completed', item: { id: 'f2', type: 'file_change', changes: [{ path: 'a.ts', kind: 'update' }, { path: 'b.ts', kind: 'delete' }], status: 'completed' } },
      { type: 'item.completed', item: { id: 'w', type: 'web_search', query: 'docs' } },
      { type: 'item.completed', item: { id: 't', type: 'todo_list', items: [{ text: 'x', completed: false }] } },
    ])
    const calls = events.filter((event) => event.event === 'tool.requested')
    expect(calls.map((event) => event.event === 'tool.requested' && [event.name, event.operations ?? [], event.subjects ?? []])).toEqual([
      ['file_change', ['file.edit'], ['file:new.ts']],
      ['file_change', ['file.edit'], ['file:a.ts', 'file:b.ts']],
      ['web_search', ['web.read'], []],
      ['todo_list', ['task.todo'], []],
    ])
  })
})
