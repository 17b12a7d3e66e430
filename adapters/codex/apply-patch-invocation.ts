import { asString, isObject } from '../shared/fields.js'
import { lexShell, type ShellToken } from '../shared/shell-lexer.js'

/**
 * Codex applies a patch itself, in no shell, when a shell call is nothing but an `apply_patch`
 * invocation (codex-rs `apply-patch/src/invocation.rs`, `maybe_parse_apply_patch`): the argv
 * `["apply_patch", patch]` (or `applypatch`), or a `bash`/`zsh`/`sh` `-c`/`-lc` script whose one
 * statement is `apply_patch <<'EOF' … EOF`, optionally after `cd <dir> &&`. 0.169 does this for
 * `exec_command {"cmd"}` too: its `exec --json` shows a `file_change` and no command. Such a call
 * is read as the `apply_patch` it ran: `{ input: patch }`, with `workdir` after a `cd`.
 */

const APPLY_PATCH = new Set(['apply_patch', 'applypatch'])
const SCRIPT_SHELLS = new Set(['bash', 'zsh', 'sh'])
const SHELL_TOOLS = new Set(['shell', 'local_shell', 'container.exec', 'shell_command'])

function isWord(token: ShellToken | undefined, text?: string): token is Extract<ShellToken, { kind: 'word' }> {
  return token?.kind === 'word' && (text === undefined || (token.text === text && !token.quoted))
}

/** The here-document body and `cd` directory of a script that is only an `apply_patch` here-document. */
function patchOfScript(script: string): { patch: string; workdir?: string } | undefined {
  // Most lines name no patch; only those are worth lexing.
  if (!script.includes('apply_patch') && !script.includes('applypatch')) return undefined
  const tokens = lexShell(script)
  while (tokens.length > 0 && tokens[tokens.length - 1]?.kind === 'operator' && (tokens[tokens.length - 1] as { text: string }).text === '\n') tokens.pop()
  let at = 0
  let workdir: string | undefined
  if (isWord(tokens[0], 'cd')) {
    const dir = tokens[1]
    const and = tokens[2]
    if (!isWord(dir) || dir.text.startsWith('-') || and?.kind !== 'operator' || and.text !== '&&') return undefined
    workdir = dir.text
    at = 3
  }
  const command = tokens[at]
  const redirection = tokens[at + 1]
  if (!isWord(command) || command.quoted || !APPLY_PATCH.has(command.text)) return undefined
  if (redirection?.kind !== 'redirection' || (redirection.operator !== '<<' && redirection.operator !== '<<-') || redirection.body === undefined) return undefined
  // The delimiter word, then nothing: a statement before or after is not the form Codex takes.
  if (!isWord(tokens[at + 2]) || tokens.length !== at + 3) return undefined
  const patch = redirection.body.replace(/\n+$/, '')
  return workdir === undefined ? { patch } : { patch, workdir }
}

function patchOfArgv(argv: readonly unknown[]): { patch: string; workdir?: string } | undefined {
  if (!argv.every((word) => typeof word === 'string')) return undefined
  const words = argv as string[]
  if (words.length === 2 && APPLY_PATCH.has(words[0] as string)) return { patch: words[1] as string }
  const shell = (words[0] ?? '').split('/').pop()?.replace(/\.[^.]*$/, '').toLowerCase() ?? ''
  if (words.length === 3 && SCRIPT_SHELLS.has(shell) && (words[1] === '-lc' || words[1] === '-c')) return patchOfScript(words[2] as string)
  return undefined
}

/** The `apply_patch` a Codex shell call ran instead of a shell, or undefined for a call that ran as named. */
export function interceptedApplyPatch(name: string, input: unknown): { name: string; input: unknown } | undefined {
  if (!isObject(input)) return undefined
  let found: { patch: string; workdir?: string } | undefined
  if (name === 'exec_command') {
    const cmd = asString(input['cmd'])
    found = cmd === undefined ? undefined : patchOfScript(cmd)
  } else if (SHELL_TOOLS.has(name)) {
    const command = input['command']
    found = Array.isArray(command) ? patchOfArgv(command) : typeof command === 'string' ? patchOfScript(command) : undefined
  }
  if (!found) return undefined
  return { name: 'apply_patch', input: found.workdir === undefined ? { input: found.patch } : { input: found.patch, workdir: found.workdir } }
}
