/** One step of an alignment of two sequences. */
export type AlignStep = { op: 'same'; a: number; b: number } | { op: 'removed'; a: number } | { op: 'added'; b: number }

/**
 * The shortest edit script between two sequences (Myers' O((N+M)·D) greedy algorithm), as
 * steps in order: an element inserted in `b` shows as one `added`, not as everything after it
 * changed. Common head and tail are matched first, so two near-identical runs cost almost nothing.
 */
export function alignSequences<T>(a: readonly T[], b: readonly T[], equal: (x: T, y: T) => boolean): AlignStep[] {
  let head = 0
  while (head < a.length && head < b.length && equal(a[head] as T, b[head] as T)) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && equal(a[a.length - 1 - tail] as T, b[b.length - 1 - tail] as T)) tail++
  const steps: AlignStep[] = []
  for (let i = 0; i < head; i++) steps.push({ op: 'same', a: i, b: i })
  const middle = myers(a.length - head - tail, b.length - head - tail, (x, y) => equal(a[head + x] as T, b[head + y] as T))
  for (const step of middle) {
    if (step.op === 'same') steps.push({ op: 'same', a: step.a + head, b: step.b + head })
    else if (step.op === 'removed') steps.push({ op: 'removed', a: step.a + head })
    else steps.push({ op: 'added', b: step.b + head })
  }
  for (let k = tail; k > 0; k--) steps.push({ op: 'same', a: a.length - k, b: b.length - k })
  return steps
}

/** Past this many edits the script is not minimised: the middle is removed then added (the frontiers would cost D² memory). */
const MAX_EDITS = 4000

function myers(n: number, m: number, equal: (x: number, y: number) => boolean): AlignStep[] {
  const max = Math.min(n + m, MAX_EDITS)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] holds the frontier before step d, for diagonals -d-1..d+1 (index k + d + 1).
  const trace: Int32Array[] = []
  let found = false
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1
      let y = x - k
      while (x < n && y < m && equal(x, y)) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) {
        found = true
        break
      }
    }
  }
  if (!found) return wholesale(n, m)
  // Walk the saved frontiers back from (n, m) to (0, 0).
  const steps: AlignStep[] = []
  let x = n
  let y = m
  for (let d = trace.length - 1; d >= 0; d--) {
    const frontier = trace[d] as Int32Array
    const at = (k: number) => frontier[k + d + 1] as number
    const k = x - y
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const previousX = d === 0 ? 0 : at(previousK)
    const previousY = previousX - previousK
    while (x > previousX && y > previousY) {
      x--
      y--
      steps.push({ op: 'same', a: x, b: y })
    }
    if (d > 0) {
      if (x === previousX) steps.push({ op: 'added', b: previousY })
      else steps.push({ op: 'removed', a: previousX })
    }
    x = previousX
    y = previousY
  }
  return steps.reverse()
}

/** Everything in `a` removed, everything in `b` added: correct, not minimal. */
function wholesale(n: number, m: number): AlignStep[] {
  const steps: AlignStep[] = []
  for (let a = 0; a < n; a++) steps.push({ op: 'removed', a })
  for (let b = 0; b < m; b++) steps.push({ op: 'added', b })
  return steps
}
