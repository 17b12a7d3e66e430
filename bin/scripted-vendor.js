#!/usr/bin/env node
// A scripted fake vendor: test support for the C3 control vectors, not a harness. It plays a
// script of the `scripted` adapter's wire and shows what reached it, so a vector can compare the
// lines a driver wrote with the lines the child read.
//
//   scripted-vendor SCRIPT     play SCRIPT: each `{"emit":…}` line is written to stdout as it
//                              stands; `{"await":"t1"}` writes `{"awaiting":"t1"}` and blocks
//                              until a line naming call `t1` arrives on stdin
//   scripted-vendor --version  prints `scripted-vendor 1.0.0`
//
// Every stdin line is echoed to stderr as it was received. `{"control":"halt"}` stops the script.
// stdout ends with the script; stdin is read to its end, so nothing written is left unechoed.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const VERSION = '1.0.0'
const [first] = process.argv.slice(2)

if (first === '--version') {
  process.stdout.write(`scripted-vendor ${VERSION}\n`)
  process.exit(0)
}
if (first === undefined) {
  process.stderr.write('usage: scripted-vendor SCRIPT | --version\n')
  process.exit(2)
}

const steps = readFileSync(first, 'utf8').split('\n').filter((line) => line.trim().length > 0)
const answered = new Set()
let halted = false
let stdinEnded = false
let wake = () => {}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity })
input.on('line', (line) => {
  process.stderr.write(`${line}\n`)
  try {
    const value = JSON.parse(line)
    if (typeof value?.call_id === 'string') answered.add(value.call_id)
    if (typeof value?.decision_for === 'string') answered.add(value.decision_for)
    if (value?.control === 'halt') halted = true
  } catch {
    // A line that is not JSON is still echoed: the driver's words, whatever they were.
  }
  wake()
})
input.on('close', () => {
  stdinEnded = true
  wake()
})

function changed() {
  return new Promise((resolve) => (wake = resolve))
}

for (const step of steps) {
  if (halted) break
  let awaited
  try {
    awaited = JSON.parse(step).await
  } catch {
    awaited = undefined
  }
  if (typeof awaited !== 'string') {
    process.stdout.write(`${step}\n`)
    continue
  }
  process.stdout.write(`${JSON.stringify({ awaiting: awaited })}\n`)
  while (!answered.has(awaited) && !halted) {
    if (stdinEnded) {
      process.stderr.write(`scripted-vendor: stdin closed while waiting on a decision for ${awaited}\n`)
      process.exit(3)
    }
    await changed()
  }
}
process.stdout.end()
