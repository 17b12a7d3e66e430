import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findAdapter } from '../../adapters/registry.js'
import { runContract } from '../../src/contract/run-contract.js'
import { blankReport, buildRunReport } from '../../src/report/build.js'
import { contractView } from '../../src/report/contract-view.js'
import { diffRuns } from '../../src/report/diff.js'
import { writeDiffHtml } from '../../src/report/diff-html.js'
import { readRunShape } from '../../src/report/run-shape.js'
import { writeReportHtml } from '../../src/report/write.js'
import { openTranscriptPath } from '../../src/trace/ir/any-format.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { call, closed, ended, metaharness, result, start, text } from '../helpers/trace.js'
import { E2E_ROOT } from './harness-run.js'

// The report in a real headless Chromium (Debian's package; .ci/run installs it), opened from
// file:// as a user would. Screenshots go to <os tmpdir>/vitest-harness-e2e/report/.

const OUT = join(E2E_ROOT, 'report')
const EXAMPLE = join(import.meta.dirname, '../../examples/trace')
const HOSTILE = '</script><script>window.__vhInjected = 1</script><img src=x onerror="window.__vhInjected = 2">'

let context: BrowserContext
let profile = ''
const pages = { example: '', hostile: '', large: '', contract: '', diff: '' }

async function writeReport(name: string, transcriptPath: string, spec?: string): Promise<string> {
  const opened = openTranscriptPath(transcriptPath)
  const data = await buildRunReport(opened.bytes, { source: transcriptPath, ...opened.read, ...(spec === undefined ? {} : { spec: readSpec(readFileSync(spec, 'utf8'), spec) }) })
  const path = join(OUT, `${name}.html`)
  writeReportHtml(path, data)
  return path
}

/** Opens a page and collects every console error and uncaught exception it produces. */
async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.goto(pathToFileURL(path).href)
  await page.waitForSelector('body[data-ready="true"]')
  return { page, errors }
}

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true })
  mkdirSync(OUT, { recursive: true })
  pages.example = await writeReport('example', join(EXAMPLE, 'b10x-fix.jsonl'), join(EXAMPLE, 'b10x-fix.trace.yaml'))

  const hostile = join(OUT, 'hostile.jsonl')
  writeFileSync(hostile, metaharness([start({ model: HOSTILE }), text(HOSTILE), call('c-1', 'Bash', { command: 'javascript:window.__vhInjected = 3' }), result('c-1', { content: HOSTILE }), ended(), closed(6)]))
  pages.hostile = await writeReport('hostile', hostile)

  // 100,000 IR events: a session, 49,999 call/result pairs, a last text.
  const large = join(OUT, 'large.jsonl')
  const events = [start()]
  for (let i = 0; i < 49_999; i++) events.push(call(`c-${i}`, 'Read', { file_path: `src/file-${i}.ts` }), result(`c-${i}`, { content: `line ${i}` }))
  events.push(text('the end'))
  writeFileSync(large, metaharness(events))
  pages.large = await writeReport('large', large)

  // The b10x golden loop with one number changed in its expected stream: 42 input tokens → 43.
  const vectors = join(OUT, 'vectors')
  cpSync(join(import.meta.dirname, '../../vectors/b10x/golden-loop-record'), join(vectors, 'golden-loop-record'), { recursive: true })
  const expectedStream = join(vectors, 'golden-loop-record', 'loop.expected.jsonl')
  writeFileSync(expectedStream, readFileSync(expectedStream, 'utf8').replace('"input_tokens":42,', '"input_tokens":43,'))
  const contract = blankReport('b10x contract')
  contract.contract = contractView(await runContract(findAdapter('b10x')!, { vectors }))
  pages.contract = join(OUT, 'contract.html')
  writeReportHtml(pages.contract, contract)

  // The recorded Codex rollout against itself with its one tool call removed.
  const rollout = join(import.meta.dirname, 'fixtures/codex/rollout.jsonl')
  const withoutCall = join(OUT, 'rollout-without-call.jsonl')
  writeFileSync(withoutCall, readFileSync(rollout, 'utf8').split('\n').filter((line) => !/"type":"function_call(_output)?"/.test(line)).join('\n'))
  const shape = async (path: string) => {
    const opened = openTranscriptPath(path)
    return readRunShape(opened.bytes, { source: path, ...opened.read })
  }
  pages.diff = join(OUT, 'diff.html')
  writeDiffHtml(pages.diff, diffRuns(await shape(rollout), await shape(withoutCall)))

  profile = mkdtempSync(join(tmpdir(), 'vh-chromium-'))
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 900 },
  })
}, 120_000)

afterAll(async () => {
  await context?.close()
  if (profile) rmSync(profile, { recursive: true, force: true })
})

describe('the report in a browser', () => {
  it('opens from file:// with no console error', async () => {
    const { page, errors } = await open(pages.example)
    expect(await page.locator('h1').textContent()).toBe('examples/b10x-fix')
    expect(await page.locator('tr.expectation').count()).toBe(12)
    await page.screenshot({ path: join(OUT, 'example.png') })
    expect(errors).toEqual([])
    await page.close()
  })

  it('scrolls to and highlights the cited event when a gap row is clicked', async () => {
    const { page, errors } = await open(pages.example)
    const gap = page.locator('tr.expectation[data-verdict="gap"]').first()
    const cited = Number(await gap.locator('a.cite').first().getAttribute('data-event'))
    await gap.click()
    const row = page.locator(`#event-${cited}`)
    await expect.poll(() => row.getAttribute('class')).toContain('selected')
    expect(await row.getAttribute('class')).toContain('cited')
    // On screen, inside the timeline's viewport.
    const box = await row.boundingBox()
    const viewport = await page.locator('#timeline').boundingBox()
    expect(box && viewport && box.y >= viewport.y && box.y + box.height <= viewport.y + viewport.height).toBe(true)
    expect(await page.locator('#detail h2').textContent()).toContain(`event #${cited}`)
    await page.screenshot({ path: join(OUT, 'gap-clicked.png') })
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows an unknown row with its reason', async () => {
    const { page } = await open(pages.example)
    const unknown = page.locator('tr.expectation[data-verdict="unknown"]').first()
    expect(await unknown.locator('.badge').textContent()).toBe('unknown')
    expect(await unknown.textContent()).toContain('this transcript records no `usage.thinking_tokens`')
    expect(await unknown.textContent()).toContain('reason: field_absent')
    await page.close()
  })

  it('renders <script> and javascript: strings from the transcript as text, running none of them', async () => {
    const { page, errors } = await open(pages.hostile)
    expect(await page.evaluate(() => (globalThis as unknown as { __vhInjected?: number }).__vhInjected)).toBeUndefined()
    expect(await page.locator('h1').textContent()).toBe(join(OUT, 'hostile.jsonl'))
    expect(await page.locator('#event-1').textContent()).toContain(HOSTILE.slice(0, 60))
    expect(await page.locator('#event-2').textContent()).toContain('javascript:window.__vhInjected = 3')
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)
    await page.locator('#event-3').click()
    expect(await page.locator('#detail pre').first().textContent()).toBe(HOSTILE)
    expect(await page.evaluate(() => (globalThis as unknown as { __vhInjected?: number }).__vhInjected)).toBeUndefined()
    await page.screenshot({ path: join(OUT, 'hostile.png') })
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a contract failure with its JSON path and both values', async () => {
    const { page, errors } = await open(pages.contract)
    const row = page.locator('tr.vector[data-id="golden-loop-record"]')
    expect(await row.locator('.badge').textContent()).toBe('fail')
    expect(await row.locator('.first-difference').textContent()).toBe('$.usage.input_tokens: expected 43, got 42 (line 3)')
    await page.screenshot({ path: join(OUT, 'contract.png') })
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a trajectory diff: the one removed call, and nothing else', async () => {
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(String(error)))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(pathToFileURL(pages.diff).href)
    await page.waitForSelector('#calls')
    expect(await page.locator('h1').textContent()).toBe('different: 1 difference(s)')
    expect(await page.locator('#calls tr[data-kind]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind')))).toEqual(['removed'])
    expect(await page.locator('#calls tr[data-kind="removed"]').textContent()).toContain('exec_command')
    await page.screenshot({ path: join(OUT, 'diff.png') })
    expect(errors).toEqual([])
    await page.close()
  })

  it('loads a 100,000-event transcript and scrolls it, rendering only the rows on screen', async () => {
    const { page, errors } = await open(pages.large)
    expect(await page.evaluate(() => (globalThis as unknown as { vitestHarnessReport: { events: number } }).vitestHarnessReport.events)).toBe(100_000)
    expect(await page.locator('#spacer .row').count()).toBeLessThan(200)
    await page.locator('#timeline').evaluate((timeline) => {
      timeline.scrollTop = timeline.scrollHeight
    })
    await expect.poll(() => page.locator('#event-99999').count()).toBe(1)
    expect(await page.locator('#event-99999').textContent()).toContain('the end')
    expect(await page.locator('#spacer .row').count()).toBeLessThan(200)
    await page.locator('#timeline').evaluate((timeline) => {
      timeline.scrollTop = timeline.scrollHeight / 2
    })
    await expect.poll(() => page.locator('#event-50000').count()).toBe(1)
    await page.screenshot({ path: join(OUT, 'large.png') })
    expect(errors).toEqual([])
    await page.close()
  })
})
