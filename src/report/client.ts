/**
 * The page's script, inlined. It reads the embedded data and builds every node with
 * `textContent`, never `innerHTML`, so transcript text can only ever be text. The timeline is
 * virtualised: only rows on screen exist in the DOM, so 100,000 events cost what 50 do.
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var ROW = 24, OVERSCAN = 20;
  var data = JSON.parse(document.getElementById('vh-data').textContent);
  var events = data.events;
  var selected = -1, cited = {}, activeRow = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) for (var key in attrs) {
      if (key === 'text') node.textContent = attrs[key];
      else if (key === 'class') node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    }
    if (children) for (var i = 0; i < children.length; i++) if (children[i]) node.appendChild(children[i]);
    return node;
  }
  function fmtBytes(n) { return n < 1024 ? n + ' B' : n < 1048576 ? (n / 1024).toFixed(1) + ' KiB' : (n / 1048576).toFixed(1) + ' MiB'; }
  function verdictBadge(verdict) { return el('span', { 'class': 'badge v-' + verdict, text: verdict === 'unknown' ? 'unknown' : verdict }); }
  function oneLine(text, max) { var t = text.replace(/\s+/g, ' '); return t.length > max ? t.slice(0, max) + '…' : t; }

  function summary(e) {
    switch (e.kind) {
      case 'session': return 'session ' + [e.session.harnessVersion && ('harness ' + e.session.harnessVersion), e.session.model && ('model ' + e.session.model), e.session.tools && (e.session.tools.length + ' tools')].filter(Boolean).join(', ');
      case 'text': return oneLine(e.text.text, 300);
      case 'thinking': return 'thinking (' + fmtBytes(e.text.bytes) + ', collapsed)';
      case 'injection': return oneLine(e.text.text, 300);
      case 'call': return e.name + ' ' + oneLine(e.args.text, 300);
      case 'result': return (e.isError ? 'error ' : '') + fmtBytes(e.content.bytes) + (e.call !== null ? ' for event ' + e.call : '') + ': ' + oneLine(e.content.text, 200);
      case 'outcome': return 'run outcome ' + Object.keys(e.fields).filter(function (k) { return e.fields[k] !== null; }).map(function (k) { return k + '=' + e.fields[k]; }).join(' ');
      case 'opaque': return 'OPAQUE record, type ' + (e.type === null ? '(none)' : e.type) + (e.subtype ? '/' + e.subtype : '') + ' — not read by the adapter';
      case 'rate_limit': return 'rate limit ' + (e.status || '?') + (e.window ? ' (' + e.window + ')' : '');
      case 'thinking_estimate': return 'thinking estimate ' + (e.tokens === null ? '?' : e.tokens) + ' tokens';
    }
    return e.kind;
  }

  function header() {
    var h = document.getElementById('head');
    var meta = el('div', { 'class': 'meta' });
    function add(label, value) { if (value === null || value === undefined || value === '') return; meta.appendChild(el('span', null, [el('b', { text: label + ' ' }), document.createTextNode(String(value))])); }
    add('source', data.source);
    add('adapter', data.adapter && data.adapter.name);
    add('sha256', data.transcriptDigest && data.transcriptDigest.slice(0, 16) + '…');
    var s = data.session;
    if (s) { add('harness', s.harnessVersion); add('model', s.model); add('tools', s.tools && s.tools.join(', ')); add('cwd', s.cwd); }
    add('events', events.length);
    add('closure', data.closure === null ? 'not closed: nothing states this is the whole run' : data.closure);
    var t = data.totals;
    add('usage', t.requests + ' request(s), ' + t.inputTokens + ' in / ' + t.outputTokens + ' out tokens' + (t.costUsd === null ? '' : ', $' + t.costUsd));
    h.appendChild(el('h1', { text: data.title }));
    h.appendChild(meta);
  }

  function citeLink(index) {
    var a = el('a', { 'class': 'cite', href: '#event-' + index, 'data-event': String(index), text: '#' + index });
    a.addEventListener('click', function (ev) { ev.preventDefault(); ev.stopPropagation(); jumpTo(index); });
    return a;
  }

  function checkPanel() {
    var side = document.getElementById('check');
    var c = data.check;
    if (!c) { if (events.length > 0) side.appendChild(el('p', { 'class': 'muted', text: 'No check: pass --spec to judge this run.' })); return; }
    side.appendChild(el('h2', null, [verdictBadge(c.verdict), document.createTextNode(' ' + c.specId + (c.specTitle ? ' — ' + c.specTitle : ''))]));
    side.appendChild(el('p', { 'class': 'muted', text: c.summary.ok + ' ok, ' + c.summary.gap + ' gap, ' + c.summary.unknown + ' unknown of ' + c.summary.total }));
    var table = el('table', { id: 'expectations' });
    table.appendChild(el('tr', null, [el('th', { text: 'verdict' }), el('th', { text: 'expectation' }), el('th', { text: 'why' }), el('th', { text: 'events' })]));
    c.expectations.forEach(function (x) {
      var links = el('td', null, x.events.map(citeLink));
      var why = el('td', { 'class': x.verdict === 'unknown' ? 'reason' : '' }, [document.createTextNode(x.explanation), x.reason ? el('div', { 'class': 'muted', text: 'reason: ' + x.reason }) : null]);
      var row = el('tr', { 'class': 'expectation', 'data-id': x.id, 'data-verdict': x.verdict }, [
        el('td', null, [verdictBadge(x.verdict), x.severity === 'advisory' ? el('div', { 'class': 'muted', text: 'advisory' }) : null]),
        el('td', null, [el('div', { text: x.id }), x.statement ? el('div', { 'class': 'muted', text: x.statement }) : null, el('div', { 'class': 'muted', text: x.kind })]),
        why, links]);
      row.addEventListener('click', function () {
        if (activeRow) activeRow.classList.remove('active');
        activeRow = row; row.classList.add('active');
        cited = {}; x.events.forEach(function (i) { cited[i] = true; });
        if (x.events.length > 0) jumpTo(x.events[0]); else render();
      });
      table.appendChild(row);
    });
    side.appendChild(table);
  }

  function usagePanel() {
    var side = document.getElementById('usage');
    if (data.requests.length === 0) return;
    var box = el('details', null, [el('summary', { text: 'Usage: ' + data.requests.length + ' request(s)' })]);
    var table = el('table', { id: 'requests' });
    table.appendChild(el('tr', null, ['#', 'model', 'in', 'out', 'cache read', 'cache write', 'after'].map(function (h) { return el('th', { text: h }); })));
    function n(v) { return v === null ? '—' : String(v); }
    data.requests.forEach(function (r, k) {
      table.appendChild(el('tr', null, [el('td', { text: String(k + 1) }), el('td', { text: r.model || '—' }), el('td', { text: n(r.inputTokens) }), el('td', { text: n(r.outputTokens) }), el('td', { text: n(r.cacheReadInputTokens) }), el('td', { text: n(r.cacheCreationInputTokens) }), el('td', null, [r.afterEvent === null ? null : citeLink(r.afterEvent)])]));
    });
    var t = data.totals;
    table.appendChild(el('tr', null, [el('th', { text: 'total' }), el('th', { text: '' }), el('th', { text: String(t.inputTokens) }), el('th', { text: String(t.outputTokens) }), el('th', { text: String(t.cacheReadInputTokens) }), el('th', { text: String(t.cacheCreationInputTokens) }), el('th', { text: t.costUsd === null ? '' : '$' + t.costUsd })]));
    box.appendChild(table);
    side.appendChild(el('h2', { text: 'Usage' }));
    side.appendChild(box);
  }

  function contractPanel() {
    var c = data.contract;
    if (!c) return;
    var side = document.getElementById('contract');
    var failed = c.vectors.filter(function (v) { return v.status === 'fail'; }).length;
    side.appendChild(el('h2', null, [verdictBadge(failed === 0 && c.unmet.length === 0 ? 'ok' : 'gap'), document.createTextNode(' contract ' + c.adapter + ' — ' + c.provider)]));
    side.appendChild(el('p', { 'class': 'muted', text: c.vectors.length + ' vector(s), ' + failed + ' failed' }));
    var table = el('table', { id: 'vectors' });
    table.appendChild(el('tr', null, [el('th', { text: 'result' }), el('th', { text: 'vector' }), el('th', { text: 'first difference' })]));
    c.vectors.forEach(function (v) {
      var cell = el('td', null, [v.firstDifference ? el('div', { 'class': v.status === 'fail' ? 'first-difference' : 'muted', text: v.firstDifference }) : null]);
      if (v.detail) cell.appendChild(el('details', null, [el('summary', { text: 'the lines' }), el('pre', { text: v.detail })]));
      table.appendChild(el('tr', { 'class': 'vector', 'data-status': v.status, 'data-id': v.id }, [
        el('td', null, [el('span', { 'class': 'badge v-' + (v.status === 'pass' ? 'ok' : v.status === 'fail' ? 'gap' : 'unknown'), text: v.status })]),
        el('td', null, [el('div', { text: v.id }), el('div', { 'class': 'muted', text: v.tier })]), cell]));
    });
    side.appendChild(table);
    c.unmet.forEach(function (u) { side.appendChild(el('p', { 'class': 'reason', text: 'checklist unmet: ' + u })); });
  }

  function providerPanel() {
    var p = data.provider;
    if (!p) return;
    var side = document.getElementById('provider');
    var missed = p.requests.filter(function (r) { return !r.matched; }).length;
    side.appendChild(el('h2', { text: 'Provider requests — ' + p.requests.length + ', ' + missed + ' not answered from the cassette' }));
    var table = el('table', { id: 'provider-requests' });
    table.appendChild(el('tr', null, ['#', 'request', 'model', 'outcome', 'miss'].map(function (h) { return el('th', { text: h }); })));
    p.requests.forEach(function (r) {
      var miss = r.matched ? '' : (r.differsAt ? 'differs from recorded #' + r.nearest + ' at ' + r.differsAt : r.outcome === 'refused' ? 'refused' : 'no recorded interaction is near');
      table.appendChild(el('tr', { 'class': 'provider-request', 'data-matched': String(r.matched) }, [
        el('td', { text: String(r.seq) }), el('td', { text: r.method + ' ' + r.path + (r.stream ? ' (stream)' : '') + (r.tools.length ? ' tools: ' + r.tools.join(', ') : '') }),
        el('td', { text: r.model || '—' }), el('td', null, [el('span', { 'class': 'badge v-' + (r.matched ? 'ok' : 'gap'), text: r.outcome })]), el('td', { 'class': 'reason', text: miss + (r.matched ? '' : ' (HTTP ' + r.status + ')') })]));
    });
    side.appendChild(table);
  }

  // The last event before each request's usage line: where one model turn's output ends.
  var requestEnds = {};
  data.requests.forEach(function (r, k) { if (r.afterEvent !== null) requestEnds[r.afterEvent] = (requestEnds[r.afterEvent] || []).concat([k]); });
  function requestNote(i) {
    var ks = requestEnds[i];
    if (!ks) return null;
    return el('span', { 'class': 'request-end', text: ks.map(function (k) { var r = data.requests[k]; return '⟵ request ' + (k + 1) + ': ' + (r.inputTokens === null ? '?' : r.inputTokens) + ' in / ' + (r.outputTokens === null ? '?' : r.outputTokens) + ' out'; }).join('  ') });
  }

  var timeline = document.getElementById('timeline');
  var spacer = document.getElementById('spacer');
  spacer.style.height = (events.length * ROW) + 'px';

  function render() {
    var top = timeline.scrollTop, height = timeline.clientHeight || 400;
    var first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    var last = Math.min(events.length, Math.ceil((top + height) / ROW) + OVERSCAN);
    var frag = document.createDocumentFragment();
    for (var i = first; i < last; i++) {
      var e = events[i];
      var cls = 'row' + (i === selected ? ' selected' : '') + (cited[i] ? ' cited' : '');
      var row = el('div', { 'class': cls, id: 'event-' + i, 'data-index': String(i) }, [
        el('span', { 'class': 'idx', text: '#' + i + ' L' + e.line }),
        el('span', { 'class': 'kind k-' + e.kind, text: e.kind }),
        el('span', { text: summary(e) }), requestNote(i)]);
      row.style.top = (i * ROW) + 'px';
      frag.appendChild(row);
    }
    spacer.textContent = '';
    spacer.appendChild(frag);
  }
  timeline.addEventListener('scroll', function () { window.requestAnimationFrame(render); });
  timeline.addEventListener('click', function (ev) {
    var row = ev.target.closest ? ev.target.closest('.row') : null;
    if (row) select(Number(row.getAttribute('data-index')));
  });

  function clipBlock(label, clip, open) {
    var box = el('details', open ? { open: '' } : null, [el('summary', { text: label + ' (' + fmtBytes(clip.bytes) + (clip.truncated ? ', first ' + fmtBytes(clip.text.length) + ' shown' : '') + ')' })]);
    box.appendChild(el('pre', { text: clip.text }));
    if (clip.truncated) box.appendChild(el('div', { 'class': 'muted', text: 'truncated: the whole text is ' + fmtBytes(clip.bytes) + '; read it in the transcript' }));
    return box;
  }

  function detail(i) {
    var pane = document.getElementById('detail');
    pane.textContent = '';
    var e = events[i];
    if (!e) return;
    pane.appendChild(el('h2', { text: 'event #' + e.i + ' — ' + e.kind + ' — transcript line ' + e.line + (e.at ? ' — ' + e.at : '') }));
    switch (e.kind) {
      case 'text': case 'injection': pane.appendChild(clipBlock('text', e.text, true)); break;
      case 'thinking': pane.appendChild(clipBlock('thinking', e.text, false)); break;
      case 'call':
        pane.appendChild(el('p', { text: 'tool ' + e.name + (e.callId ? ' (call id ' + e.callId + ')' : '') }));
        pane.appendChild(clipBlock('arguments', e.args, true));
        if (e.result !== null && events[e.result]) { pane.appendChild(el('p', null, [document.createTextNode('result at '), citeLink(e.result)])); pane.appendChild(clipBlock('result', events[e.result].content, true)); }
        else pane.appendChild(el('p', { 'class': 'muted', text: 'no result recorded for this call' }));
        break;
      case 'result':
        if (e.call !== null) pane.appendChild(el('p', null, [document.createTextNode('result of '), citeLink(e.call), document.createTextNode(e.isError ? ' — error' : '')]));
        pane.appendChild(clipBlock('result', e.content, true)); break;
      case 'opaque': pane.appendChild(el('p', { 'class': 'opaque-flag', text: 'Opaque record: the adapter could not read it. type ' + (e.type === null ? '(none)' : e.type) + (e.subtype ? ', subtype ' + e.subtype : '') + ', sha256 ' + e.digest })); break;
      case 'session': pane.appendChild(el('pre', { text: JSON.stringify(e.session, null, 2) })); break;
      case 'outcome': pane.appendChild(el('pre', { text: JSON.stringify(e.fields, null, 2) })); break;
      default: pane.appendChild(el('p', { text: summary(e) }));
    }
  }

  function select(i) { selected = i; detail(i); render(); }
  function jumpTo(i) {
    if (i < 0 || i >= events.length) { var pane = document.getElementById('detail'); pane.textContent = ''; pane.appendChild(el('p', { 'class': 'muted', text: 'event #' + i + ' is not on this page: the report holds no transcript.' })); return; }
    var height = timeline.clientHeight || 400;
    timeline.scrollTop = Math.max(0, i * ROW - height / 2 + ROW / 2);
    select(i);
  }

  header(); checkPanel(); contractPanel(); providerPanel(); usagePanel(); render();
  if (events.length === 0) { var empty = document.getElementById('detail'); empty.textContent = ''; empty.appendChild(el('p', { 'class': 'muted', text: 'No transcript on this page: pass --transcript to see the run.' })); }
  var m = /^#event-(\d+)$/.exec(window.location.hash);
  if (m) jumpTo(Number(m[1])); else if (events.length > 0) select(0);
  window.vitestHarnessReport = { jumpTo: jumpTo, rendered: function () { return spacer.childNodes.length; }, events: events.length };
  document.body.setAttribute('data-ready', 'true');
})();
`
