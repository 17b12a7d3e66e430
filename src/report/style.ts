/** The page's stylesheet, inlined. Verdicts carry a word and a colour, never colour alone. */
export const REPORT_STYLE = `
:root { --ok: #1a7f37; --gap: #cf222e; --unknown: #9a6700; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #fff; --hl: #fff8c5; --sel: #ddf4ff; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 10px 16px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 18px; margin: 0 0 4px; }
.meta { color: var(--muted); font-size: 12px; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.meta b { color: var(--fg); font-weight: 600; }
main { display: grid; grid-template-columns: minmax(320px, 42%) 1fr; height: calc(100vh - 70px); }
#side { overflow: auto; border-right: 1px solid var(--line); padding: 8px 12px; }
#runview { display: grid; grid-template-rows: 58% 42%; min-height: 0; }
h2 { font-size: 14px; margin: 12px 0 6px; }
table { border-collapse: collapse; width: 100%; font-size: 12px; }
td, th { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
tr.expectation { cursor: pointer; }
tr.expectation:hover, tr.expectation.active { background: var(--sel); }
.badge { display: inline-block; min-width: 4.2em; padding: 1px 6px; border-radius: 10px; color: #fff; font-weight: 600; font-size: 11px; text-align: center; }
.v-ok { background: var(--ok); } .v-gap { background: var(--gap); } .v-unknown { background: var(--unknown); }
.reason { color: var(--unknown); overflow-wrap: anywhere; }
.muted { color: var(--muted); }
a.cite { margin-right: 6px; font-family: ui-monospace, monospace; }
#timeline { position: relative; overflow: auto; border-bottom: 1px solid var(--line); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
#spacer { position: relative; width: 100%; }
.row { position: absolute; left: 0; right: 0; height: 24px; line-height: 24px; padding: 0 8px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer; border-bottom: 1px solid #f0f2f4; }
.row:hover { background: #f6f8fa; }
.row.cited { background: var(--hl); }
.row.selected { background: var(--sel); outline: 2px solid #0969da; outline-offset: -2px; }
.idx { display: inline-block; min-width: 8em; padding-right: 0.8em; color: var(--muted); }
.kind { display: inline-block; min-width: 6.5em; padding-right: 0.8em; font-weight: 600; }
.k-call { color: #8250df; } .k-result { color: #0550ae; } .k-opaque { color: var(--gap); } .k-text { color: var(--fg); } .k-thinking { color: var(--muted); } .k-session, .k-outcome { color: var(--ok); }
#detail { overflow: auto; padding: 8px 12px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: 6px 8px; margin: 4px 0; font-size: 12px; max-height: 40vh; overflow: auto; }
details > summary { cursor: pointer; }
.first-difference { color: var(--gap); font-family: ui-monospace, monospace; font-weight: 600; word-break: break-all; }
.request-end { margin-left: 1.5em; color: var(--muted); font-style: italic; }
.opaque-flag { color: var(--gap); font-weight: 600; }
`
