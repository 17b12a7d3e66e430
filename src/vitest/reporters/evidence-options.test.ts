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
    })
  })

  it.each([
    [{ format: 'toml' }, /option format is "toml"; expected one of 'yaml', 'json'/],
    [{ testResults: 'sometimes' }, /option testResults is "sometimes"; expected one of 'per-file', 'off'/],
    [{ suite: 'Unit Tests' }, /option suite is "Unit Tests": test suite names are lower-case kebab-case/],
    [{ testResults: [{ suite: 'unit' }] }, /testResults\[0\]\.selector is undefined/],
    [{ durations: 'yes' }, /option durations is "yes"; expected true or false/],
    [{ outDir: '' }, /option outDir is ""; expected a folder path/],
    [{ outdir: 'x' }, /unknown evidence reporter option "outdir"/],
  ])('refuses %j, quoting the option and the value', (options, message) => {
    expect(() => normalizeEvidenceReporterOptions(options as EvidenceReporterOptions)).toThrow(EvidenceReporterOptionsError)
    expect(() => normalizeEvidenceReporterOptions(options as EvidenceReporterOptions)).toThrow(message)
  })
})
