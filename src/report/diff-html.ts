import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { writeSortedJson } from '../events/json.js'
import { clip } from './clip.js'
import type { TrajectoryDiff } from './diff.js'
import { argumentLine } from './diff-text.js'
import { renderPage } from './html.js'
import { REPORT_STYLE } from './style.js'

/** The diff as the page shows it: one row per aligned call, each with its lines, plus text, usage and verdicts. */
export interface DiffView {
  format: 'vitest-harness.diff/1'
  a: TrajectoryDiff['a']
  b: TrajectoryDiff['b']
  differences: number
  calls: { kind: string; a: number | null; b: number | null; name: string; args: string; lines: string[] }[]
  texts: { kind: string; index: number; text: string }[]
  usage: TrajectoryDiff['usage']
  verdicts: TrajectoryDiff['verdicts']
}

export function diffView(diff: TrajectoryDiff): DiffView {
  return {
    format: 'vitest-harness.diff/1',
    a: diff.a,
    b: diff.b,
    differences: diff.differences,
    calls: diff.calls.map((entry) => {
      const call = entry.kind === 'added' ? entry.b : entry.a
      const lines =
        entry.kind === 'changed'
          ? [
              ...entry.arguments.map(argumentLine),
              ...(entry.result
                ? [`result: ${entry.result.before?.bytes ?? 'none'} B → ${entry.result.after?.bytes ?? 'none'} B${entry.result.firstLine ? `, first difference at line ${entry.result.firstLine.line}: ${JSON.stringify(entry.result.firstLine.before)} → ${JSON.stringify(entry.result.firstLine.after)}` : ''}`]
                : []),
            ]
          : []
      return {
        kind: entry.kind,
        a: entry.kind === 'added' ? null : entry.a.index,
        b: entry.kind === 'removed' ? null : entry.b.index,
        name: call.name,
        args: clip(writeSortedJson(call.input), 2048).text,
        lines,
      }
    }),
    texts: diff.texts.map((entry) => (entry.kind === 'removed' ? { kind: 'removed', index: entry.a.index, text: clip(entry.a.text, 4096).text } : { kind: 'added', index: entry.b.index, text: clip(entry.b.text, 4096).text })),
    usage: diff.usage,
    verdicts: diff.verdicts,
  }
}

const DIFF_STYLE = `${REPORT_STYLE}
.d-same { background: #8c959f; } .d-changed { background: var(--unknown); } .d-removed { background: var(--gap); } .d-added { background: var(--ok); }
#diff { padding: 8px 16px; } #diff td.args { font-family: ui-monospace, monospace; word-break: break-all; }
`

const DIFF_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('vh-data').textContent);
  function el(tag, cls, text) { var n = document.createElement(tag); if (cls) n.className = cls; if (text !== undefined) n.textContent = text; return n; }
  var root = document.getElementById('diff');
  root.appendChild(el('h1', null, data.differences === 0 ? 'same: the runs match call for call' : 'different: ' + data.differences + ' difference(s)'));
  [['A', data.a], ['B', data.b]].forEach(function (s) { root.appendChild(el('p', 'muted', s[0] + ' ' + s[1].source + ' (' + s[1].adapter + ', ' + s[1].events + ' event(s), ' + s[1].calls + ' tool call(s))')); });
  root.appendChild(el('h2', null, 'Tool calls'));
  var table = el('table'); table.id = 'calls';
  var head = el('tr'); ['', 'A', 'B', 'tool', 'arguments / differences'].forEach(function (h) { head.appendChild(el('th', null, h)); }); table.appendChild(head);
  data.calls.forEach(function (c) {
    var tr = el('tr', 'call-' + c.kind); tr.setAttribute('data-kind', c.kind);
    var badge = el('td'); badge.appendChild(el('span', 'badge d-' + c.kind, c.kind)); tr.appendChild(badge);
    tr.appendChild(el('td', null, c.a === null ? '' : '#' + c.a)); tr.appendChild(el('td', null, c.b === null ? '' : '#' + c.b));
    tr.appendChild(el('td', null, c.name));
    var cell = el('td', 'args'); cell.appendChild(el('div', c.lines.length ? 'muted' : null, c.args));
    c.lines.forEach(function (line) { cell.appendChild(el('div', null, line)); }); tr.appendChild(cell);
    table.appendChild(tr);
  });
  root.appendChild(table);
  if (data.texts.length) { root.appendChild(el('h2', null, 'Text')); data.texts.forEach(function (t) { root.appendChild(el('pre', null, (t.kind === 'removed' ? '- A#' : '+ B#') + t.index + ' ' + t.text)); }); }
  if (data.usage.length) { root.appendChild(el('h2', null, 'Usage')); data.usage.forEach(function (u) { root.appendChild(el('div', null, u.field + ': ' + u.before + ' → ' + u.after)); }); }
  if (data.verdicts.length) { root.appendChild(el('h2', null, 'Verdicts')); data.verdicts.forEach(function (v) { root.appendChild(el('div', null, v.id + ': ' + (v.before || 'absent') + ' → ' + (v.after || 'absent'))); }); }
})();
`

export function renderDiffHtml(diff: TrajectoryDiff): string {
  return renderPage({ title: `diff ${diff.a.source} → ${diff.b.source} — vitest-harness`, body: '<div id="diff"></div>', data: diffView(diff), script: DIFF_SCRIPT, style: DIFF_STYLE })
}

/** Writes the diff page to `path`, its folder made as needed. */
export function writeDiffHtml(path: string, diff: TrajectoryDiff): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, renderDiffHtml(diff))
}
