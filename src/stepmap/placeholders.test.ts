import { describe, expect, it } from 'vitest'
import { expandPlaceholders, placeholdersIn } from './placeholders.js'

describe('placeholders', () => {
  it('finds only `{[a-z_]+}`', () => {
    expect(placeholdersIn('{run_directory}/x-{task}.{}{a: .b}{Transcript}{transcript}')).toEqual(['run_directory', 'task', 'transcript'])
  })

  it('expands what the run knows and says what it does not', () => {
    expect(expandPlaceholders('{run_directory}/t.yaml', { run_directory: '/r' })).toEqual({ text: '/r/t.yaml' })
    expect(expandPlaceholders('--transcript={transcript}', { run_directory: '/r' })).toEqual({ problem: expect.stringContaining('no llm step of this state has run') })
    expect(expandPlaceholders('{task}', {})).toEqual({ problem: expect.stringContaining('names none') })
  })
})
