/**
 * Whether the environment says this is CI: `CI` set to anything but `""`, `0` or `false` (any case).
 * CI services set `CI=true` (or `1`, or their own name); a developer who exports `CI=false` or
 * `CI=0` means "not CI", and is read that way everywhere.
 */
export function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['CI']
  if (value === undefined) return false
  const normalised = value.trim().toLowerCase()
  return normalised !== '' && normalised !== '0' && normalised !== 'false'
}
