import { describe, expect, it } from 'vitest'
import { ByteBoundedCache } from './byte-bounded-cache.js'

describe('ByteBoundedCache', () => {
  it('evicts the oldest entries to stay within its byte budget, whatever the number of entries', () => {
    const cache = new ByteBoundedCache<string, number>(100)
    for (let index = 0; index < 10; index++) cache.set(`k${index}`, index, 30)
    expect(cache.retainedBytes).toBeLessThanOrEqual(100)
    expect(cache.size).toBe(3)
    expect(cache.get('k9')).toBe(9)
    expect(cache.get('k0')).toBeUndefined()
  })

  it('keeps nothing heavier than the whole budget, and replaces an entry without counting it twice', () => {
    const cache = new ByteBoundedCache<string, string>(100)
    cache.set('huge', 'value', 101)
    expect(cache.get('huge')).toBeUndefined()
    cache.set('a', 'one', 60)
    cache.set('a', 'two', 60)
    expect(cache.get('a')).toBe('two')
    expect(cache.retainedBytes).toBe(60)
  })
})
