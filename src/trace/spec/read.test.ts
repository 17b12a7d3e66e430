import { describe, expect, it } from 'vitest'
import type { TraceCode } from '../errors.js'
import { KIND_NAMES } from './kinds.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TraceSpecError } from '../errors.js'
import { parseSpec, readSpec, readSpecFile } from './read.js'

const document = (body: string) => `format: trace-spec/1\nid: planning-plugin/eval\nexpectations:\n${body}`
const one = (expect: string) => document(`  - id: only\n    expect: ${expect}\n`)

function refusals(text: string) {
  const result = parseSpec(text)
  if (result.ok) throw new Error(`expected refusals, the document validated: ${text}`)
  return result.refusals
}

function accepted(text: string) {
  const result = parseSpec(text)
  if (!result.ok) throw new Error(result.refusals.map((refusal) => `${refusal.code} at ${refusal.location}: ${refusal.message}`).join('\n'))
  return result.spec
}

const count = (list: { code: TraceCode }[], code: TraceCode) => list.filter((refusal) => refusal.code === code).length

// The design's own example, as upstream's reader tests write it.
const REALISTIC_YAML = `
format: trace-spec/1
id: planning-plugin/eval
title: The planning plugin behaves as its skill says it does
expectations:
  - id: our-plugin-loaded
    statement: only our plugin was loaded
    expect:
      env.plugin_loaded: {plugin: aep, version: "0.1.0", source: aep@inline}
  - id: nothing-else-loaded
    expect: {env.exclusive: {plugins: [aep]}}
  - id: billed-to-the-session
    expect: {env.api_key_source: {equals: none}}
  - id: skill-completed
    expect: {skill.completed: {skill: "aep-plan:planning", count: {at_least: 1}}}
  - id: created-through-the-cli
    expect:
      tool.called: {tool: Bash, args: {command: {contains: "aep plan artifact new"}}, count: {at_least: 1}}
  - id: no-hand-edited-frontmatter
    expect: {tool.absent: {tool: Edit, args: {file_path: {glob: "*/.engineering/planning/*.md"}}}}
  - id: no-edit-was-touched-by-a-human
    expect: {tool.result: {tool: Edit, result: {userModified: {equals: false}}}}
  - id: asked-before-writing
    expect: {order: {first: {tool: Bash, args: {command: {contains: "aep plan artifact"}}}, before: {tool: Edit}}}
  - id: within-budget
    severity: advisory
    expect: {cost.total: {at_most_usd: 1.0}}
  - id: not-paid-from-overage
    expect: {rate_limit.overage: {equals: false}}
  - id: the-run-records-its-own-turns
    on_unknown: gap
    expect: {turns: {count: {at_most: 30}}}
  - id: read-results-stayed-small
    expect: {tool.result_bytes: {tool: Read, bytes: {at_most: 200000}, per: each}}
`

const REALISTIC_JSON = JSON.stringify({
  format: 'trace-spec/1',
  id: 'planning-plugin/eval',
  title: 'The planning plugin behaves as its skill says it does',
  expectations: [
    { id: 'our-plugin-loaded', statement: 'only our plugin was loaded', expect: { 'env.plugin_loaded': { plugin: 'aep', version: '0.1.0', source: 'aep@inline' } } },
    { id: 'nothing-else-loaded', expect: { 'env.exclusive': { plugins: ['aep'] } } },
    { id: 'billed-to-the-session', expect: { 'env.api_key_source': { equals: 'none' } } },
    { id: 'skill-completed', expect: { 'skill.completed': { skill: 'aep-plan:planning', count: { at_least: 1 } } } },
    { id: 'created-through-the-cli', expect: { 'tool.called': { tool: 'Bash', args: { command: { contains: 'aep plan artifact new' } }, count: { at_least: 1 } } } },
    { id: 'no-hand-edited-frontmatter', expect: { 'tool.absent': { tool: 'Edit', args: { file_path: { glob: '*/.engineering/planning/*.md' } } } } },
    { id: 'no-edit-was-touched-by-a-human', expect: { 'tool.result': { tool: 'Edit', result: { userModified: { equals: false } } } } },
    { id: 'asked-before-writing', expect: { order: { first: { tool: 'Bash', args: { command: { contains: 'aep plan artifact' } } }, before: { tool: 'Edit' } } } },
    { id: 'within-budget', severity: 'advisory', expect: { 'cost.total': { at_most_usd: 1.0 } } },
    { id: 'not-paid-from-overage', expect: { 'rate_limit.overage': { equals: false } } },
    { id: 'the-run-records-its-own-turns', on_unknown: 'gap', expect: { turns: { count: { at_most: 30 } } } },
    { id: 'read-results-stayed-small', expect: { 'tool.result_bytes': { tool: 'Read', bytes: { at_most: 200000 }, per: 'each' } } },
  ],
})

// A minimal valid document for every published kind name (upstream's `EVERY_KIND`).
const EVERY_KIND: Record<(typeof KIND_NAMES)[number], string> = {
  api_requests: '{api_requests: {count: {at_most: 20}}}',
  'cache.created_tokens': '{cache.created_tokens: {count: {at_most: 30000}}}',
  'cache.hit_ratio': '{cache.hit_ratio: {at_least: 0.9}}',
  'cache.read_tokens': '{cache.read_tokens: {count: {at_least: 1}, model: claude-sonnet-5}}',
  'cache.used': '{cache.used: {equals: true}}',
  'cost.total': '{cost.total: {at_most_usd: 1.0}}',
  'duration.api': '{duration.api: {ms: {at_most: 120000}}}',
  'duration.total': '{duration.total: {ms: {at_most: 120000}}}',
  'env.agent_available': '{env.agent_available: {agent: reviewer}}',
  'env.api_key_source': '{env.api_key_source: {equals: none}}',
  'env.exclusive': '{env.exclusive: {plugins: [aep]}}',
  'env.mcp_servers': '{env.mcp_servers: {count: {at_most: 0}}}',
  'env.model': '{env.model: {equals: claude-sonnet-5}}',
  'env.output_style': '{env.output_style: {equals: default}}',
  'env.permission_mode': '{env.permission_mode: {equals: default}}',
  'env.plugin_loaded': '{env.plugin_loaded: {plugin: aep}}',
  'env.skill_available': '{env.skill_available: {skill: planning}}',
  'env.tool_available': '{env.tool_available: {tool: Bash}}',
  'events.assistant': '{events.assistant: {count: {at_most: 40}}}',
  iterations: '{iterations: {count: {exactly: 1}}}',
  order: '{order: {first: {tool: Bash}, before: {tool: Edit}}}',
  'permission.denied': '{permission.denied: {count: {exactly: 0}}}',
  'rate_limit.overage': '{rate_limit.overage: {equals: false}}',
  'rate_limit.status': '{rate_limit.status: {allowed: [allowed]}}',
  'rate_limit.utilization': '{rate_limit.utilization: {at_most: 0.9}}',
  result: '{result: {is_error: false}}',
  service_tier: '{service_tier: {equals: standard}}',
  'skill.completed': '{skill.completed: {skill: planning}}',
  'skill.invoked': '{skill.invoked: {skill: planning}}',
  speed: '{speed: {equals: standard}}',
  'step.exec_time': '{step.exec_time: {tool: Bash, ms: {at_most: 200}}}',
  'step.gen_time': '{step.gen_time: {tool: Edit, ms: {at_most: 20000}}}',
  'subagent.spawned': '{subagent.spawned: {count: {at_most: 2}}}',
  'text.matches': '{text.matches: {contains: refused}}',
  'thinking.estimated': '{thinking.estimated: {count: {at_least: 1}}}',
  'time.inference_total': '{time.inference_total: {ms: {at_most: 60000}}}',
  'time.tool_exec_total': '{time.tool_exec_total: {ms: {at_most: 5000}}}',
  time_to_request: '{time_to_request: {ms: {at_most: 500}}}',
  'tokens.input': '{tokens.input: {count: {at_most: 100000}}}',
  'tokens.output': '{tokens.output: {count: {at_most: 20000}}}',
  'tokens.thinking': '{tokens.thinking: {count: {at_least: 1}}}',
  'tokens.total': '{tokens.total: {count: {at_most: 200000}, model: claude-sonnet-5}}',
  'tool.absent': '{tool.absent: {tool: Edit}}',
  'tool.called': '{tool.called: {tool: Bash}}',
  'tool.error_rate': '{tool.error_rate: {tool: Read, rate: {at_most: 0.1}}}',
  'tool.failed': '{tool.failed: {tool: Read, count: {exactly: 0}}}',
  'tool.repeated': '{tool.repeated: {tool: Read, count: {at_most: 1}}}',
  'tool.result': '{tool.result: {tool: Edit, result: {userModified: {equals: false}}}}',
  'tool.result_bytes': '{tool.result_bytes: {tool: Read, bytes: {at_most: 100000}}}',
  ttft: '{ttft: {ms: {at_most: 5000}}}',
  turns: '{turns: {count: {at_most: 20}}}',
  'usage.share': '{usage.share: {field: cache_creation_input_tokens, at_most: 0.6}}',
  'usage.trend': '{usage.trend: {field: cache_read_input_tokens, trend: non_decreasing}}',
}

describe('reading trace-spec/1', () => {
  it('reads a realistic specification and keeps its expectations in document order', () => {
    const spec = accepted(REALISTIC_YAML)
    expect(spec.id).toBe('planning-plugin/eval')
    expect(spec.title).toBe('The planning plugin behaves as its skill says it does')
    expect(spec.expectations.map((expectation) => expectation.id)).toEqual([
      'our-plugin-loaded',
      'nothing-else-loaded',
      'billed-to-the-session',
      'skill-completed',
      'created-through-the-cli',
      'no-hand-edited-frontmatter',
      'no-edit-was-touched-by-a-human',
      'asked-before-writing',
      'within-budget',
      'not-paid-from-overage',
      'the-run-records-its-own-turns',
      'read-results-stayed-small',
    ])
    expect(spec.expectations[0]?.statement).toBe('only our plugin was loaded')
    expect(spec.expectations[4]?.kind).toEqual({
      expect: 'tool.called',
      selector: { tools: ['Bash'], args: { command: { contains: 'aep plan artifact new' } } },
      count: { at_least: 1, at_most: null, exactly: null },
    })
    expect(spec.expectations[11]?.kind).toEqual({
      expect: 'tool.result_bytes',
      selector: { tools: ['Read'], args: {} },
      bytes: { at_least: null, at_most: 200000, exactly: null },
      per: 'each',
    })
    expect(spec.expectations[8]?.severity).toBe('advisory')
    expect(spec.expectations[10]?.on_unknown).toBe('gap')
    expect(spec.digest).toMatch(/^[0-9a-f]{64}$/)
  })

  it('reads the same document written as JSON as the same specification', () => {
    const fromYaml = accepted(REALISTIC_YAML)
    const fromJson = accepted(REALISTIC_JSON)
    expect(fromJson.digest).toBe(fromYaml.digest)
    expect(fromJson).toEqual(fromYaml)
  })

  it("digests a glob specification to upstream's published digest", () => {
    // Upstream pins this digest in trace-domain/src/raw.rs, recomputable with sha256sum over
    // {"expectations":[{"id":"only","kind":{"expect":"tool.absent","selector":{"args":{"file_path":{"glob":"*/.engineering/planning/*.md"}},"tools":["Edit"]}},"on_unknown":"unknown","severity":"gate","statement":null}],"format":"trace-spec/1","id":"planning-plugin/eval","title":null}
    const spec = accepted(one('{tool.absent: {tool: Edit, args: {file_path: {glob: "*/.engineering/planning/*.md"}}}}'))
    expect(spec.digest).toBe('935cd04eaca6870e46bef165186a955de51d42971386eaa04bf719d797ed140e')
  })

  it('reaches every one of the fifty-three kinds from a document, under its own name', () => {
    expect(KIND_NAMES).toHaveLength(53)
    for (const name of KIND_NAMES) {
      const spec = accepted(one(EVERY_KIND[name]))
      expect(spec.expectations[0]?.kind.expect, name).toBe(name)
    }
  })

  it('accepts skill.available as a spelling of env.skill_available, with one digest for both', () => {
    const canonical = accepted(one('{env.skill_available: {skill: planning}}'))
    const alias = accepted(one('{skill.available: {skill: planning}}'))
    expect(alias.expectations[0]?.kind).toEqual(canonical.expectations[0]?.kind)
    expect(alias.expectations[0]?.kind.expect).toBe('env.skill_available')
    expect(alias.digest).toBe(canonical.digest)
  })

  it('defaults severity to gate, on_unknown to unknown, and an omitted count to at_least 1', () => {
    const omitted = accepted(one('{tool.called: {tool: Bash}}'))
    expect(omitted.expectations[0]).toMatchObject({ severity: 'gate', on_unknown: 'unknown', kind: { count: { at_least: 1, at_most: null, exactly: null } } })
    for (const kind of ['skill.invoked', 'skill.completed']) {
      expect(accepted(one(`{${kind}: {skill: planning}}`)).expectations[0]?.kind).toMatchObject({ count: { at_least: 1 } })
    }
  })

  it('reads env.tool_available as its four claims', () => {
    expect(accepted(one('{env.tool_available: {tool: Bash}}')).expectations[0]?.kind).toEqual({ expect: 'env.tool_available', availability: { form: 'offered', tool: 'Bash' } })
    expect(accepted(one('{env.tool_available: {tool: Task, available: false}}')).expectations[0]?.kind).toEqual({
      expect: 'env.tool_available',
      availability: { form: 'not_offered', tool: 'Task' },
    })
    expect(accepted(one('{env.tool_available: {only: [Read, Glob, Read]}}')).expectations[0]?.kind).toEqual({
      expect: 'env.tool_available',
      availability: { form: 'only', tools: ['Glob', 'Read'] },
    })
    expect(accepted(one('{env.tool_available: {operations: [file.write, file.edit], tools: [workspace_write, Write]}}')).expectations[0]?.kind).toEqual({
      expect: 'env.tool_available',
      availability: { form: 'offered_any', tools: ['Write', 'workspace_write'], operations: ['file.edit', 'file.write'] },
    })
  })

  it('keeps a regex as the pattern the author wrote', () => {
    const spec = accepted(one('{tool.absent: {tool: Edit, args: {file_path: {regex: "\\\\.md$"}}}}'))
    expect(spec.expectations[0]?.kind).toMatchObject({ selector: { args: { file_path: { regex: '\\.md$' } } } })
  })

  it('refuses a flat expect with a sentence that says where the kind goes', () => {
    const [refusal] = refusals(one('tool.called'))
    expect(refusal?.code).toBe('TRACE-SPEC-002')
    expect(refusal?.location).toBe('document')
    expect(refusal?.message).toContain('expect: {tool.called')
  })
})

describe('refusals, by code, accumulated', () => {
  it('TRACE-SPEC-001: a format this build does not read', () => {
    const list = refusals('format: trace-spec/2\nid: eval\nexpectations:\n  - id: a\n    expect: {turns: {count: {at_most: 5}}}\n')
    expect(list.map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-001'])
    expect(list[0]?.location).toBe('format')
  })

  it('TRACE-SPEC-002: a text that is not the shape at all, once and alone, naming what was written', () => {
    expect(refusals('format: trace-spec/1\nid: eval\nexpectations: 7\n').map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-002'])
    expect(refusals('format: [unterminated\n').map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-002'])
    const unknownKind = refusals(one('{tool.kalled: {tool: Bash}}'))
    expect(unknownKind).toHaveLength(1)
    expect(unknownKind[0]?.message).toContain('tool.kalled')
    const misspelt = refusals(one('{tool.called: {toool: Bash}}'))
    expect(misspelt[0]?.code).toBe('TRACE-SPEC-002')
    expect(misspelt[0]?.message).toContain('toool')
    expect(refusals(one('{turns: {count: {at_leats: 1}}}'))[0]?.code).toBe('TRACE-SPEC-002')
    expect(refusals(one('{usage.trend: {field: cache_tokens, trend: non_decreasing}}'))[0]?.code).toBe('TRACE-SPEC-002')
    expect(refusals(document('  - id: a\n    expect: {turns: {count: {at_most: 5}}}\n    stray: 1\n'))[0]?.message).toContain('stray')
  })

  it('TRACE-SPEC-003: two expectations sharing an id', () => {
    const list = refusals(document('  - id: same\n    expect: {turns: {count: {at_most: 5}}}\n  - id: same\n    expect: {ttft: {ms: {at_most: 5000}}}\n'))
    expect(list.map((refusal) => `${refusal.code} ${refusal.location}`)).toEqual(['TRACE-SPEC-003 expectations[1].id'])
  })

  it('TRACE-SPEC-004: a specification that expects nothing', () => {
    expect(refusals('format: trace-spec/1\nid: planning-plugin/eval\nexpectations: []\n').map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-004'])
    expect(refusals('format: trace-spec/1\nid: planning-plugin/eval\n').map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-004'])
  })

  it('TRACE-SPEC-005: parameters that decide nothing, in each of their shapes', () => {
    for (const body of [
      '{env.exclusive: {plugins: []}}',
      '{env.tool_available: {only: []}}',
      '{rate_limit.status: {allowed: []}}',
      '{env.plugin_loaded: {plugin: ""}}',
      '{tool.result: {tool: Edit, result: {}}}',
      '{result: {}}',
      '{text.matches: {contains: ""}}',
      '{text.matches: {glob: "*"}}',
      '{text.matches: {regex: ".*"}}',
      '{tool.called: {tool: Bash, count: {}}}',
      '{tool.absent: {}}',
      '{order: {first: {tool: Bash}, before: {tool: Bash}}}',
      '{tool.called: {tool: Write, tools: [Edit], count: {at_least: 1}}}',
      '{tool.called: {tools: [], count: {at_least: 1}}}',
      '{tool.called: {tools: [Write, ""], count: {at_least: 1}}}',
      '{tool.called: {tools: [Write, Write], count: {at_least: 1}}}',
      '{env.tool_available: {tool: Bash, only: [Bash]}}',
      '{env.tool_available: {}}',
      '{env.tool_available: {only: [Bash], available: false}}',
      '{env.tool_available: {tool: ""}}',
      '{env.tool_available: {only: [Bash, ""]}}',
      '{env.tool_available: {tools: [Write], available: false}}',
      '{tool.result: {tool: Bash, result: {duration: {equals: 0.5}}}}',
      '{usage.share: {field: input_tokens}}',
      '{usage.share: {field: input_tokens, at_most: 1}}',
    ]) {
      const list = refusals(one(body))
      expect(count(list, 'TRACE-SPEC-005'), body).toBe(1)
      expect(list, body).toHaveLength(1)
    }
    // The same selector on tool.called is a real claim: "the agent called at least one tool".
    accepted(one('{tool.called: {}}'))
    accepted(one('{text.matches: {regex: "^$"}}'))
    accepted(one('{usage.share: {field: input_tokens, at_least: 1}}'))
  })

  it('TRACE-SPEC-006: ids that are not stable identifiers, wherever they appear', () => {
    const both = refusals('format: trace-spec/1\nid: Planning Plugin\nexpectations:\n  - id: Not An Id\n    expect: {turns: {count: {at_most: 5}}}\n')
    expect(both.map((refusal) => `${refusal.code} ${refusal.location}`)).toEqual(['TRACE-SPEC-006 id', 'TRACE-SPEC-006 expectations[0].id'])
    expect(refusals('format: trace-spec/1\nid: a/b/c\nexpectations:\n  - id: a\n    expect: {turns: {count: {at_most: 5}}}\n').map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-006'])
  })

  it('TRACE-SPEC-007: a bound nothing can satisfy, whichever way it was written', () => {
    for (const body of ['{turns: {count: {at_least: 5, at_most: 2}}}', '{turns: {count: {exactly: 1, at_least: 1}}}', '{cache.hit_ratio: {at_least: 0.9, at_most: 0.5}}', '{usage.share: {field: input_tokens, at_least: 0.9, at_most: 0.5}}']) {
      const list = refusals(one(body))
      expect(list.map((refusal) => refusal.code), body).toEqual(['TRACE-SPEC-007'])
    }
    expect(refusals(one('{turns: {count: {at_least: 5, at_most: 2}}}'))[0]?.location).toBe('expectations[0].expect.turns.count')
  })

  it('TRACE-SPEC-008: a regex that will not compile, with the engine’s complaint', () => {
    const list = refusals(one('{tool.absent: {tool: Edit, args: {file_path: {regex: "(unclosed"}}}}'))
    expect(list.map((refusal) => `${refusal.code} ${refusal.location}`)).toEqual(['TRACE-SPEC-008 expectations[0].expect.tool.absent.args.file_path'])
    expect(list[0]?.message).toContain('missing closing )')
    expect(refusals(one('{text.matches: {regex: "*"}}'))[0]?.code).toBe('TRACE-SPEC-008')
  })

  it('reports four defects in one document as four refusals in one pass', () => {
    const list = refusals(
      'format: trace-spec/2\nid: planning-plugin/eval\nexpectations:\n' +
        '  - id: same-id\n    expect: {tool.called: {tool: Bash, count: {at_least: 5, at_most: 2}}}\n' +
        '  - id: same-id\n    expect: {tool.absent: {tool: Edit, args: {file_path: {regex: "("}}}}\n',
    )
    expect(list).toHaveLength(4)
    for (const code of ['TRACE-SPEC-001', 'TRACE-SPEC-003', 'TRACE-SPEC-007', 'TRACE-SPEC-008'] as const) expect(count(list, code), code).toBe(1)
  })

  it('TRACE-SPEC-002 for a file that is not UTF-8, and for an alias to an anchor never set', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vh-spec-')), 'spec.yaml')
    writeFileSync(path, Buffer.concat([Buffer.from('format: trace-spec/1\nid: '), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]))
    expect(() => readSpecFile(path)).toThrowError(TraceSpecError)
    expect(() => readSpecFile(path)).toThrowError('TRACE-SPEC-002 at document: the specification is not UTF-8')
    expect(refusals('format: trace-spec/1\nid: *nowhere\n').map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-002'])
  })

  it('throws every refusal with the upstream wrapping from readSpec', () => {
    expect(() => readSpec(one('{turns: {count: {at_least: 5, at_most: 2}}}'), 'spec.yaml')).toThrowError(
      'spec.yaml is not a trace-spec/1 specification — 1 refusal(s):\nTRACE-SPEC-007 at expectations[0].expect.turns.count: the floor is above the ceiling (between 5 and 2), so no observed value can satisfy it',
    )
  })
})

describe('hostile YAML (issue 17)', () => {
  it('refuses an alias bomb and deep nesting as malformed, with the line, not by running out', () => {
    const bomb = ['format: trace-spec/1', 'id: bomb', 'a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, level) => `${String.fromCharCode(98 + level)}: &${String.fromCharCode(98 + level)} [${Array(9).fill(`*${String.fromCharCode(97 + level)}`).join(', ')}]`)].join('\n')
    const refused = parseSpec(bomb)
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.refusals.map((refusal) => [refusal.code, refusal.message.endsWith('(ALIAS_LIMIT)')])).toEqual([['TRACE-SPEC-002', true]])
    const deep = parseSpec(`format: trace-spec/1\nid: deep\nexpectations: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)
    expect(deep.ok).toBe(false)
    if (!deep.ok) expect(deep.refusals[0]?.message).toMatch(/\(NESTING_TOO_DEEP\)$/)
  })

  it('refuses a key written twice, naming its line', () => {
    const refused = parseSpec('format: trace-spec/1\nid: twice\nid: again\nexpectations: []\n')
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.refusals[0]?.message).toMatch(/at line 3 column 1 \(DUPLICATE_KEY\)$/)
  })
})

describe('an unknown kind or field names the nearest known one and where it was written', () => {
  const text = 'format: trace-spec/1\nid: eval\nexpectations:\n  - id: a\n    expect:\n      tool.calld: {tool: Bash}\n'

  it('a misspelt kind: did you mean, and the line and column of the key', () => {
    const [refusal] = refusals(text)
    expect(refusal?.code).toBe('TRACE-SPEC-002')
    expect(refusal?.message).toMatch(/^unknown variant `tool\.calld` \(did you mean `tool\.called`\?\), expected one of /)
    expect(refusal?.position).toEqual({ line: 6, col: 7 })
  })

  it('a misspelt field of a kind, and of an expectation', () => {
    const [field] = refusals('format: trace-spec/1\nid: eval\nexpectations:\n  - id: a\n    expect:\n      turns: {count: {at_leats: 1}}\n')
    expect(field?.message).toBe('unknown field `at_leats` (did you mean `at_least`?) (at expectations[0].expect.turns.count)')
    expect(field?.position).toEqual({ line: 6, col: 23 })
    const [outer] = refusals('format: trace-spec/1\nid: eval\nexpectations:\n  - id: a\n    statment: hi\n    expect: {turns: {count: {at_most: 5}}}\n')
    expect(outer?.message).toBe('unknown field `statment` (did you mean `statement`?) (at expectations[0])')
    expect(outer?.position).toEqual({ line: 5, col: 5 })
  })

  it('no suggestion when nothing is close', () => {
    const [refusal] = refusals(one('{zzzzzzzzzz: {}}'))
    expect(refusal?.message).toMatch(/^unknown variant `zzzzzzzzzz`, expected one of /)
  })

  it('a file’s refusal prints file:line:column under it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-spec-place-'))
    const path = join(dir, 'misspelt.trace.yaml')
    writeFileSync(path, text)
    expect(() => readSpecFile(path)).toThrowError(new RegExp(`\\(at expectations\\[0\\]\\.expect\\)\\n  --> ${path.replaceAll('.', '\\.')}:6:7$`))
  })
})
