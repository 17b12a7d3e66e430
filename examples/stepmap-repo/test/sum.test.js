import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sum } from '../src/sum.js'

test('adds two numbers', () => {
  assert.equal(sum(2, 3), 5)
})

test('adds a negative number', () => {
  assert.equal(sum(2, -3), -1)
})
