import { createHash } from 'node:crypto'
import { CLIENT_SCRIPT } from './client.js'
import type { ReportData } from './model.js'
import { REPORT_STYLE } from './style.js'

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for an HTML text node or attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string)
}

/**
 * JSON safe inside `<script type="application/json">`: no `<` (so no `</script>` or `<!--`), `>`
 * or `&` survives as itself, and the line separators JSON allows but scripts once did not are
 * escaped too. `JSON.parse` reads it back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`
}

/** What one self-contained page is made of: static markup, its data, its script and its stylesheet. */
export interface PageParts {
  title: string
  /** Markup with no transcript text in it: the script fills it from the data. */
  body: string
  data: unknown
  script: string
  style: string
}

/**
 * One self-contained HTML page: stylesheet and script inline, the data as JSON. Its
 * Content-Security-Policy allows only that script and that stylesheet (by hash) and no network at
 * all, so even a transcript that smuggled markup in could neither run nor fetch.
 */
export function renderPage(parts: PageParts): string {
  const csp = `default-src 'none'; script-src ${cspHash(parts.script)}; style-src ${cspHash(parts.style)}; img-src data:`
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<style>${parts.style}</style>`,
    '</head>',
    '<body>',
    parts.body,
    `<script type="application/json" id="vh-data">${jsonForScript(parts.data)}</script>`,
    `<script>${parts.script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

const REPORT_BODY = [
  '<header id="head"></header>',
  '<main>',
  '<section id="side"><div id="check"></div><div id="contract"></div><div id="provider"></div><div id="usage"></div></section>',
  '<section id="runview"><div id="timeline" tabindex="0"><div id="spacer"></div></div><div id="detail"></div></section>',
  '</main>',
].join('\n')

/** The run report as one self-contained page. */
export function renderReportHtml(data: ReportData): string {
  return renderPage({ title: `${data.title} — vitest-harness report`, body: REPORT_BODY, data, script: CLIENT_SCRIPT, style: REPORT_STYLE })
}
