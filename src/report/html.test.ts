import { describe, expect, it } from 'vitest'
import { call, closed, metaharness, result, start, text } from '../../test/helpers/trace.js'
import { buildRunReport } from './build.js'
import { escapeHtml, jsonForScript, renderReportHtml } from './html.js'

const HOSTILE = '</script><script>window.__vhInjected = 1</script><!-- <img src=x onerror="window.__vhInjected=2">'

async function* chunks(text: string): AsyncGenerator<string> {
  yield text
}

describe('escaping', () => {
  it('embeds JSON with no <, > or & left, and reads back unchanged', () => {
    const value = { text: HOSTILE, link: 'javascript:alert(1)', sep: '\u2028\u2029 & done' }
    const embedded = jsonForScript(value)
    expect(embedded).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(embedded)).toEqual(value)
  })

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
  })

  it('puts a hostile transcript on the page only inside the JSON data, never as markup', async () => {
    const transcript = metaharness([start({ model: HOSTILE }), text(HOSTILE), call('c-1', HOSTILE, { url: 'javascript:window.__vhInjected=3' }), result('c-1', { content: HOSTILE }), closed(4)])
    const html = renderReportHtml(await buildRunReport(chunks(transcript), { source: HOSTILE, title: HOSTILE }))
    // Two scripts: the data and the page's own; the hostile ones never open.
    expect(html.match(/<script/g)).toHaveLength(2)
    expect(html).not.toContain('__vhInjected = 1</script>')
    expect(html).not.toContain('<img')
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;window.__vhInjected = 1&lt;/script&gt;')
    // No network and no script but the page's own, by hash.
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;; style-src &#39;sha256-/)
  })
})
