import { readSpec } from '../../src/trace/spec/read.js'

/**
 * What the skill-load suites (the fixtures' unit test and the e2e that writes them) ask of a run
 * that loaded the skill `greet`.
 */
export const SKILL_LOAD_SPEC = readSpec(`format: trace-spec/1
id: skill-loads
expectations:
  - id: used
    expect: {skill.invoked: {skill: greet}}
  - id: never-used
    expect: {skill.invoked: {skill: greet, count: {exactly: 0}}}
  - id: completed
    expect: {skill.completed: {skill: greet}}
`)
