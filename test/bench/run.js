// `npm run bench`: every benchmark, each printing its ratio against a baseline measured in the
// same run. Exits 1 when a target is missed, so a regression is visible without a timed test.
const BENCHES = ['./replay-b10x.js', './convert.js', './contract.js', './trace-check.js', './glob.js', './provider.js', './report-paint.js',
  // Issue 15: checking a converted format against converting it alone, and a fleet on every core.
  './check-formats.js', './fleet.js',
  // Issue 17: evidence intake that streams.
  './evidence-intake.js']

let allMet = true
for (const bench of BENCHES) {
  const module = await import(bench)
  const met = await module.run()
  allMet &&= met
  console.log('')
}
console.log(allMet ? 'every benchmark target met' : 'a benchmark target was missed')
process.exitCode = allMet ? 0 : 1
