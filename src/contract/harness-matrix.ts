import { LOOPBACK_PLACEHOLDER_KEY, type LaunchDeclaration, type ModelBinding, type Wire } from '../../adapters/launch/declaration.js'
import { SHARED_NORMALISATION } from '../../adapters/launch/normalisation.js'
import type { LoadedVector } from './manifest.js'

/**
 * `docs/harnesses.md`: the harness matrix, generated from the launch declarations (pins, wires,
 * bindings, normalisation rules, what was verified) and the C1 launch vectors (vectors/, and
 * test/fixtures/launch-vectors/ for the harnesses with no registered contract adapter),
 * so it cannot drift from them. `npm run generate:harness-matrix` writes it; a unit test fails
 * when the committed page is out of date.
 */

const PROVIDER_URL = /\{(baseUrl|origin)\}/
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** Where a binding puts the provider's URL: argv words, environment variables, config files. */
function urlCarriers(declaration: LaunchDeclaration, binding: ModelBinding): string[] {
  const carriers: string[] = []
  const argv = [...declaration.argv, ...binding.args]
  argv.forEach((word, index) => {
    if (!PROVIDER_URL.test(word)) return
    const flag = word.startsWith('-') || index === 0 ? '' : argv[index - 1] ?? ''
    carriers.push(`argv ${code(flag.startsWith('-') ? `${flag} ${word}` : word)}`)
  })
  for (const [name, value] of Object.entries({ ...declaration.env, ...binding.env })) if (PROVIDER_URL.test(value)) carriers.push(`env ${code(name)}`)
  for (const file of binding.files) if (PROVIDER_URL.test(file.content)) carriers.push(`config ${code(file.path)}`)
  return carriers
}

/** Where the placeholder key reaches the harness: the variable holding it, and the file naming that variable. */
function keyCarriers(binding: ModelBinding): string[] {
  const names = Object.entries(binding.env).flatMap(([name, value]) => (value === LOOPBACK_PLACEHOLDER_KEY ? [name] : []))
  const carriers = names.map((name) => `env ${code(name)}`)
  for (const file of binding.files) {
    if (file.content.includes(LOOPBACK_PLACEHOLDER_KEY)) carriers.push(`literal in ${code(file.path)}`)
    else if (names.some((name) => file.content.includes(name))) carriers.push(`read by ${code(file.path)}`)
  }
  return carriers.length > 0 ? carriers : ['none']
}

function wires(declaration: LaunchDeclaration): string {
  const declared = Object.keys(declaration.bindings) as Wire[]
  return declared.map((wire) => (declaration.verified?.wire === wire ? `**${wire}** (run)` : wire)).join(', ')
}

function pointed(declaration: LaunchDeclaration): string {
  const wire = declaration.verified?.wire ?? (Object.keys(declaration.bindings)[0] as Wire | undefined)
  const binding = wire ? declaration.bindings[wire] : undefined
  if (!wire || !binding) return 'no binding'
  return `${wire}: URL by ${urlCarriers(declaration, binding).join(', ') || 'nothing'}; key by ${keyCarriers(binding).join(', ')}`
}

function transcriptForms(declaration: LaunchDeclaration): string {
  const forms = [
    ...(declaration.stdout ? [`${code(declaration.stdout.format)} (stdout)`] : []),
    ...(declaration.trajectory ? [`${code(declaration.trajectory.format)} (${code(declaration.trajectory.path)})`] : []),
    ...(declaration.verified?.traceChecked ?? []).filter((format) => format !== declaration.stdout?.format && format !== declaration.trajectory?.format).map((format) => `${code(format)} (exported)`),
  ]
  return forms.join(', ') || 'none'
}

function checks(declaration: LaunchDeclaration, launchVectors: readonly string[]): string {
  const parts: string[] = []
  const verified = declaration.verified
  if (verified) {
    parts.push(`e2e ${code(verified.suite)}: record once, replay twice, stdout identical after normalisation (launched ${verified.fromDeclaration ? 'from this declaration' : 'with the suite’s own argv'})`)
    if (verified.traceChecked.length > 0) parts.push(`trace specs read-before-answer, no-shell on ${verified.traceChecked.map(code).join(', ')}`)
  }
  if (launchVectors.length > 0) parts.push(`C1 ${launchVectors.map(code).join(', ')}`)
  return parts.join('; ') || 'none: no real run here'
}

/** The page, from every declaration and the project's vectors. */
export function harnessMatrix(declarations: readonly LaunchDeclaration[], vectors: readonly LoadedVector[]): string {
  const c1 = (adapter: string): string[] => vectors.filter((vector) => vector.adapter === adapter && vector.tier === 'c1').map((vector) => vector.id)
  const rows = declarations.map((declaration) =>
    [
      declaration.adapter,
      declaration.pinnedVersion ?? 'unreleased',
      declaration.install ? code(`${declaration.install.package}@${declaration.install.version}`) : 'not installable (no registry package)',
      declaration.runtime ? `node ${declaration.runtime.engines}: ${code(`${declaration.runtime.package}@${declaration.runtime.version}`)}` : 'the project’s node',
      wires(declaration),
      pointed(declaration),
      declaration.verified?.sideRequests ?? 'not observed',
      declaration.normalised.map((rule) => rule.what).join('; ') || 'shared rules only',
      transcriptForms(declaration),
      checks(declaration, c1(declaration.adapter)),
    ]
      .map(cell)
      .join(' | '),
  )
  return [
    '# Harness matrix',
    '',
    '<!-- Generated by `npm run generate:harness-matrix` from the launch declarations (adapters/*/launch.ts), vectors/ and test/fixtures/launch-vectors/; do not edit by hand. -->',
    '',
    'Every harness with a launch declaration: the version pinned (the one place it lives; the e2e suite installs exactly it into',
    '`${XDG_CACHE_HOME:-~/.cache}/vitest-harness/harnesses`), the wires it is declared for (**bold**: the wire a real run verified),',
    'how the loopback provider’s URL and the placeholder key reach it, what it sends besides the model turns, what the e2e',
    'comparison normalises, which transcript forms are read, and which checks run.',
    '',
    '| harness | pinned | installed from | runtime | wires | how it is pointed | besides the model turns | normalised (beyond the shared rules) | transcript forms read | checks |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
    `Shared normalisation rules (every harness, \`adapters/launch/normalisation.ts\`), after the e2e scratch root becomes \`<e2e-root>\`: ${SHARED_NORMALISATION.map((rule) => rule.what).join('; ')}.`,
    '',
  ].join('\n')
}
