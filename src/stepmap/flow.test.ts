import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { StepMapError } from './diagnostics.js'
import { projectFlow } from './flow.js'
import { layoutWorkflow } from './layout.js'
import { readStepMapOrThrow } from './map.js'
import { readWorkflowOrThrow, type Workflow } from './workflow.js'

function workflow(states: string[], transitions: [string, string, string?][], terminal: string[] = []): Workflow {
  const body = states.map((id) => `  ${id}: {title: ${id}, summary: "The  ${id}\n    state.", terminal: ${terminal.includes(id)}}`).join('\n')
  const edges = transitions.map(([from, to, when]) => `  - {from: ${from}, to: ${to}${when ? `, when: ${when}` : ''}}`).join('\n')
  return readWorkflowOrThrow(`id: demo/flow\nversion: 4\ntitle: t\ninitial: ${states[0]}\nstates:\n${body}\ntransitions:\n${edges}\n`)
}

describe('layoutWorkflow (longest-path layering, retreats ignored)', () => {
  it('puts a state below its deepest predecessor and does not let a back-edge push it down', () => {
    const layout = layoutWorkflow(workflow(['a', 'b', 'c', 'd'], [['a', 'b'], ['b', 'c'], ['a', 'c'], ['c', 'b'], ['c', 'd']]))
    expect([...layout.layers]).toEqual([['a', 0], ['b', 1], ['c', 2], ['d', 3]])
    expect(layout.depth).toBe(4)
  })
})

describe('projectFlow', () => {
  const chain = workflow(['plan', 'build', 'check', 'done'], [['plan', 'build'], ['build', 'check', 'x'], ['check', 'build', 'y'], ['check', 'done', 'z']], ['done'])

  it('gathers a retreat into one repeating group, drops terminals, counts guards, names the map', () => {
    const map = readStepMapOrThrow(`format: aep.driver-steps/1
id: demo/map
workflow: demo/flow/4
states:
  build:
    steps:
      - {kind: llm, prompt: "Say \\"hi\\"\\nthen stop", scope: [{paths: ["b/**"], write: denied}, {paths: ["**"], write: partial-only}], description: Build.}
      - {kind: command, run: [make, "a b"], evidence: {kind: test_result, verifier: test-runner, suite: unit}}
  check:
    steps:
      - {kind: operator, prompt: Look.}
`)
    const text = projectFlow(chain, map, { maxAttempts: 7 })
    expect(text).toContain('# **An ordering, not a government.** 3 guard(s) in the source')
    expect(text).toContain('# Dropped, because nothing runs in them: done.\n')
    expect(text).toContain('# 4 state(s) in 4 layer(s) of the source; 2 node(s) here.\n# Steps from step map `demo/map`, which is pinned to `demo/flow/4`.\nid: demo/flow\n')
    expect(text.split('id: demo/flow\n')[1]).toBe(`root:
  id: root
  nodes:
    - id: plan
      nodes:
        - id: plan-1
          run:
            state: plan
            summary: "The plan state."
    # the retreat: check -> build
    - id: build-to-check
      needs: [plan]
      repeat: {max: 7}
      nodes:
        # The build state.
        - id: build
          nodes:
            - id: build-1
              run:
                state: build
                kind: llm
                prompt: "Say \\"hi\\"\\nthen stop"
                scope:
                  - "b/**=denied"
                  - "**=partial-only"
                harness: "claude-code"
                description: "Build."
            - id: build-2
              needs: [build-1]
              run:
                state: build
                kind: command
                command: ["make", "a b"]
                evidence:
                  kind: test_result
                  verifier: test-runner
                  suite: unit
        - id: check
          needs: [build]
          nodes:
            - id: check-1
              run:
                state: check
                summary: "The check state."
                kind: operator
                prompt: "Look."
`)
    const parsed = parse(text) as { root: { nodes: { id: string }[] } }
    expect(parsed.root.nodes.map((node) => node.id)).toEqual(['plan', 'build-to-check'])
  })

  it('refuses a map that does not apply, in the cross-check’s words', () => {
    const stale = readStepMapOrThrow('format: aep.driver-steps/1\nid: demo/map\nworkflow: demo/flow/3\nstates:\n  plan: {steps: []}\n')
    expect(() => projectFlow(chain, stale)).toThrow(StepMapError)
    expect(() => projectFlow(chain, stale)).toThrow(/version_mismatch at driver-steps\[demo\/map\]\.workflow: the map pins `demo\/flow\/3`/)
  })

  it('names a one-state retreat `<state>-again`', () => {
    const loop = workflow(['a', 'b'], [['a', 'b'], ['b', 'b', 'again']])
    expect(projectFlow(loop)).toContain('# the retreat: b -> b\n    - id: b-again\n      needs: [a]\n')
  })
})
