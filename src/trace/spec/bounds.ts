import { rustDisplayF64 } from '../rust-format.js'
import type { CountBound, RangeBound } from './model.js'

/** Whether an observed whole number satisfies the bound; `exactly` is read before either side. */
export function countHolds(bound: CountBound, value: number): boolean {
  if (bound.exactly !== null) return value === bound.exactly
  return (bound.at_least === null || value >= bound.at_least) && (bound.at_most === null || value <= bound.at_most)
}

/** Whether an observed fraction satisfies the bound. */
export function rangeHolds(bound: RangeBound, value: number): boolean {
  return (bound.at_least === null || value >= bound.at_least) && (bound.at_most === null || value <= bound.at_most)
}

/** `exactly 3`, `between 1 and 5`, `at least 1`, `at most 0`, `unbounded`. */
export function describeCount(bound: CountBound): string {
  if (bound.exactly !== null) return `exactly ${bound.exactly}`
  if (bound.at_least !== null && bound.at_most !== null) return `between ${bound.at_least} and ${bound.at_most}`
  if (bound.at_least !== null) return `at least ${bound.at_least}`
  if (bound.at_most !== null) return `at most ${bound.at_most}`
  return 'unbounded'
}

/** As `describeCount`, with each side printed as Rust prints an `f64` (`1`, `0.9`). */
export function describeRange(bound: RangeBound): string {
  if (bound.at_least !== null && bound.at_most !== null) return `between ${rustDisplayF64(bound.at_least)} and ${rustDisplayF64(bound.at_most)}`
  if (bound.at_least !== null) return `at least ${rustDisplayF64(bound.at_least)}`
  if (bound.at_most !== null) return `at most ${rustDisplayF64(bound.at_most)}`
  return 'unbounded'
}

/** The answer to a bound over a count that might be a lower bound on the real one. */
export type Decision = 'holds' | 'fails' | 'undecided'

/**
 * Three-valued reasoning over a count that unread (opaque) events could only make larger: holds
 * for every value ≥ observed → holds; holds for none → fails; otherwise undecided.
 */
export function decideCount(bound: CountBound, observed: number, mayGrow: boolean): Decision {
  const holdsNow = countHolds(bound, observed)
  if (!mayGrow) return holdsNow ? 'holds' : 'fails'
  if (holdsNow && bound.at_most === null && bound.exactly === null) return 'holds'
  const ceiling = bound.exactly ?? bound.at_most
  return ceiling !== null && observed > ceiling ? 'fails' : 'undecided'
}

/** As `decideCount`, for a fraction or an amount (`RangeBound` has no `exactly`). */
export function decideRange(bound: RangeBound, observed: number, mayGrow: boolean): Decision {
  return decideCount({ ...bound, exactly: null }, observed, mayGrow)
}
