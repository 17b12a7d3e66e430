import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { renderReportHtml } from './html.js'
import type { ReportData } from './model.js'

/** Writes the page to `path` (its folder made as needed) and returns its size in bytes. */
export function writeReportHtml(path: string, data: ReportData): number {
  const html = renderReportHtml(data)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, html)
  return Buffer.byteLength(html)
}
