import { describe, expect, it } from 'vitest'
import { RecentList } from './recent.js'

describe('RecentList', () => {
  it('keeps the last entries in order and counts all of them', () => {
    const list = new RecentList<number>(3)
    for (let index = 1; index <= 10; index++) list.push(index)
    expect(list.toArray()).toEqual([8, 9, 10])
    expect(list.total).toBe(10)
    const short = new RecentList<number>(5)
    short.push(1)
    expect(short.toArray()).toEqual([1])
  })
})
