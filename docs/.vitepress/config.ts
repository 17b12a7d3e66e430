import { defineConfig } from 'vitepress'
import { traceSpecKindSidebar } from './kinds-sidebar.js'

// The docs site (`npm run docs:build`). Pages under reference/ marked "generated" are written by
// `npm run docs:generate`; a unit test fails when they are out of date.
export default defineConfig({
  title: 'vitest-harness',
  description: 'A Vitest plugin and trace-conformance toolkit for AI coding-agent harnesses.',
  cleanUrls: true,
  markdown: {
    // A sample's fence info may carry `file=PATH` (the samples test writes the block there; see
    // test/helpers/doc-samples.ts): show that path above the block, so the reader knows it too.
    config(md) {
      const fence = md.renderer.rules.fence
      if (!fence) return
      md.renderer.rules.fence = (tokens, index, options, env, self) => {
        const file = /(?:^|\s)file=(\S+)/.exec(tokens[index]?.info ?? '')?.[1]
        const block = fence(tokens, index, options, env, self)
        return file ? `<p class="sample-file"><code>${md.utils.escapeHtml(file)}</code></p>\n${block}` : block
      }
    },
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'Concepts', link: '/concepts' },
      { text: 'CLI', link: '/reference/cli' },
      { text: 'Trace-spec kinds', link: '/reference/trace-spec-kinds/' },
      { text: 'Harnesses', link: '/harnesses' },
    ],
    sidebar: [
      { text: 'Introduction', items: [
        { text: 'Getting started', link: '/getting-started' },
        { text: 'Concepts', link: '/concepts' },
      ] },
      { text: 'Capabilities', items: [
        { text: 'Harness contracts', link: '/guide/contracts' },
        { text: 'Replay', link: '/guide/replay' },
        { text: 'Reading transcripts', link: '/guide/transcripts' },
        { text: 'The loopback provider', link: '/guide/provider' },
        { text: 'Trace specifications', link: '/guide/trace-specs' },
        { text: 'Step maps and workflows', link: '/guide/step-maps' },
        { text: 'Evidence', link: '/guide/evidence' },
        { text: 'Report and diff', link: '/guide/report-diff' },
        { text: 'Harnesses', link: '/harnesses' },
      ] },
      { text: 'Reference', items: [
        { text: 'The CLI', link: '/reference/cli' },
        { text: 'Trace-spec kinds', link: '/reference/trace-spec-kinds/', collapsed: true, items: traceSpecKindSidebar() },
        { text: 'Repository layout', link: '/reference/layout' },
      ] },
    ],
    search: { provider: 'local' },
  },
})
