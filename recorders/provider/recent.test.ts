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

describe('RecentList bounded by bytes', () => {
  it('drops the oldest entries past the byte budget, counts them, and always keeps the newest', () => {
    const list = new RecentList<string>({ count: 100, bytes: 10, sizeOf: (item) => item.length })
    for (const item of ['aaaa', 'bbbb', 'cccc']) list.push(item)
    expect(list.toArray()).toEqual(['bbbb', 'cccc'])
    expect(list.retainedBytes).toBe(8)
    expect(list.dropped).toBe(1)
    list.push('x'.repeat(50))
    expect(list.toArray()).toEqual(['x'.repeat(50)])
    expect(list.total).toBe(4)
    expect(list.dropped).toBe(3)
  })

  it('stays bounded by count across many pushes', () => {
    const list = new RecentList<number>({ count: 1000, bytes: 1 << 30, sizeOf: () => 1 })
    for (let index = 0; index < 100_000; index++) list.push(index)
    expect(list.length).toBe(1000)
    expect(list.toArray()[0]).toBe(99_000)
    expect(list.retainedBytes).toBe(1000)
    expect(list.dropped).toBe(99_000)
  })
})
