import { describe, expect, it } from 'vitest'
import { EVIDENCE_REPORTER_DEFAULTS, EvidenceReporterOptionsError, normalizeEvidenceReporterOptions, type EvidenceReporterOptions } from './evidence-options.js'

describe('evidence reporter options', () => {
  it('applies the defaults once', () => {
    expect(normalizeEvidenceReporterOptions(undefined)).toEqual(EVIDENCE_REPORTER_DEFAULTS)
    expect(normalizeEvidenceReporterOptions({ outDir: 'out', format: 'json', suite: 'e2e', durations: true, clean: false, testResults: [{ suite: 'integration', selector: 'test/int/**' }] })).toEqual({
      outDir: 'out',
      format: 'json',
      suite: 'e2e',
      durations: true,
      clean: false,
      testResults: [{ suite: 'integration', selector: 'test/int/**' }],
      html: false,
    })
    expect(normalizeEvidenceReporterOptions({ html: true }).html).toEqual({ outDir: 'trace-reports' })
    expect(normalizeEvidenceReporterOptions({ html: { outDir: 'pages' } }).html).toEqual({ outDir: 'pages' })
  })

  it.each([
    [{ format: 'toml' }, /option format is "toml"; expected one of 'yaml', 'json'/],
    [{ testResults: 'sometimes' }, /option testResults is "sometimes"; expected one of 'per-file', 'off'/],
    [{ suite: 'Unit Tests' }, /option suite is "Unit Tests": test suite names are lower-case kebab-case/],
    [{ testResults: [{ suite: 'unit' }] }, /testResults\[0\]\.selector is undefined/],
    [{ durations: 'yes' }, /option durations is "yes"; expected true or false/],
    [{ outDir: '' }, /option outDir is ""; expected a folder path/],
    [{ outdir: 'x' }, /unknown evidence reporter option "outdir"/],
    [{ html: 'yes' }, /option html is "yes"; expected true, false or \{ outDir \}/],
    [{ html: { outDir: '' } }, /option html.outDir is ""; expected a folder path/],
    [{ html: { out: 'x' } }, /unknown evidence reporter option html.out; the only one is outDir/],
  ])('refuses %j, quoting the option and the value', (options, message) => {
    expect(() => normalizeEvidenceReporterOptions(options as EvidenceReporterOptions)).toThrow(EvidenceReporterOptionsError)
    expect(() => normalizeEvidenceReporterOptions(options as EvidenceReporterOptions)).toThrow(message)
  })
})
