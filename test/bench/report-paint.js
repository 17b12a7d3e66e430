// The HTML report's time to first paint on a 100,000-event transcript, in Debian's headless
// chromium from file://, beside a baseline page that embeds the same data and only parses it, in
// the same run. Target: the report paints within 3 s and within 3× the baseline (parsing the data
// is the floor; the virtualised timeline must add little to it). Not measured without chromium.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const CHROMIUM = '/usr/bin/chromium'
const EVENTS = 100_000

function transcript() {
  const lines = [{ event: 'session.started', harness_version: '1.0.0', model: 'm', offered_tools: ['Read'] }]
  for (let i = 1; lines.length < EVENTS; i++) {
    lines.push({ event: 'tool.requested', call_id: `c-${i}`, name: 'Read', input: { file_path: `src/file-${i}.ts` } })
    lines.push({ event: 'tool.result', call_id: `c-${i}`, is_error: false, content: `line ${i}` })
  }
  return lines.map((event, index) => JSON.stringify({ format: 'metaharness.event/1', seq: index + 1, run: 'bench', ...event })).join('\n') + '\n'
}

/** Milliseconds from navigation to the frame after the page says it is ready. */
async function paintMs(context, path) {
  const page = await context.newPage()
  await page.goto(pathToFileURL(path).href)
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  const ms = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())))))
  await page.close()
  return ms
}

export async function run() {
  if (!existsSync(CHROMIUM)) {
    console.log(`report-paint: NOT MEASURED — no ${CHROMIUM} (apt-get install chromium)`)
    return true
  }
  const { buildRunReport } = await import('../../dist/src/report/build.js')
  const { renderReportHtml, renderPage } = await import('../../dist/src/report/html.js')
  const { chromium } = await import('playwright-core')
  const dir = mkdtempSync(join(tmpdir(), 'vh-bench-report-'))
  try {
    const data = await buildRunReport((async function* () { yield transcript() })(), { source: 'bench.jsonl' })
    const subjectPath = join(dir, 'report.html')
    writeFileSync(subjectPath, renderReportHtml(data))
    const baselinePath = join(dir, 'baseline.html')
    const parseOnly = "(function(){var d=JSON.parse(document.getElementById('vh-data').textContent);document.body.setAttribute('data-count',String(d.events.length));document.body.setAttribute('data-ready','true');})();"
    writeFileSync(baselinePath, renderPage({ title: 'baseline', body: '<p>baseline</p>', data, script: parseOnly, style: 'p{margin:0}' }))
    const profile = join(dir, 'profile')
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    let baseline = Infinity
    let subject = Infinity
    try {
      // Best of three each, alternating, so a cold cache favours neither.
      for (let round = 0; round < 3; round++) {
        baseline = Math.min(baseline, await paintMs(context, baselinePath))
        subject = Math.min(subject, await paintMs(context, subjectPath))
      }
    } finally {
      await context.close()
    }
    const slower = subject / baseline
    const met = subject < 3000 && slower <= 3
    console.log(
      [
        `report-paint: ${EVENTS.toLocaleString('en')} events, a ${(Buffer.byteLength(renderReportHtml(data)) / 1048576).toFixed(1)} MiB page from file://`,
        `  baseline ${baseline.toFixed(0)} ms (the same data, parsed and not shown)`,
        `  subject  ${subject.toFixed(0)} ms to first paint, ${slower.toFixed(2)}× the baseline`,
        `  target   under 3000 ms and ≤ 3× the baseline ${met ? 'MET' : 'MISSED'}`,
      ].join('\n'),
    )
    return met
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
