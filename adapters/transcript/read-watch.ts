import type { Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import type { SeamOptions } from '../types.js'

type SessionStarted = Extract<Emission, { event: 'session.started' }>

/** The opening's facts a record supplies; `harness_version`, `model` and `cwd` count only where the seam did not give them. */
function startFromRecord(start: SessionStarted, seam: Omit<SeamOptions, 'run'>): boolean {
  const fromSeam = (value: string | null | undefined, given: string | null | undefined) => value === null || value === undefined || value === given
  if (!fromSeam(start.harness_version, seam.harnessVersion) || !fromSeam(start.model, seam.model) || !fromSeam(start.cwd, seam.cwd)) return true
  const facts = [start.session_id, start.permission_mode, start.credential_source, start.output_style, start.offered_tools, start.slash_commands, start.skills, start.agents, start.plugins, start.mcp_servers]
  return facts.some((fact) => fact !== null && fact !== undefined)
}

/**
 * Watches a conversion's emissions and says whether anything in the input was read: an event other
 * than `opaque`, `warning` or `stream.closed`, and other than a session opening built from nothing
 * the record said. A conversion that read nothing (the wrong `--from`) is refused
 * (`VH_NOTHING_READ`) instead of writing a stream of opaque events.
 */
export class ReadWatch {
  private readAny = false
  private emptyStart = false
  private opaque = 0
  private readonly types = new Map<string, number>()

  constructor(private readonly seam: Omit<SeamOptions, 'run'> = {}) {}

  /** Notes one emission; true once anything has been read. */
  observe(emission: Emission): boolean {
    if (this.readAny) return true
    switch (emission.event) {
      case 'opaque': {
        this.opaque += 1
        const type = emission.vendor_type ?? '(untyped)'
        this.types.set(type, (this.types.get(type) ?? 0) + 1)
        break
      }
      case 'warning':
      case 'stream.closed':
        break
      case 'session.started':
        if (startFromRecord(emission, this.seam)) this.readAny = true
        else this.emptyStart = true
        break
      default:
        this.readAny = true
    }
    return this.readAny
  }

  get read(): boolean {
    return this.readAny
  }

  /** Whether nothing was read: no record at all, only unread records, or only an opening the record said nothing of. */
  get nothingRead(): boolean {
    return !this.readAny
  }

  /** Why nothing was read, in a sentence for `file` (`format` names what it was read as). */
  sentence(format: string): string {
    // Either no record at all, or only records that carry no event of a run (a Claude session file
    // of summaries and file-history snapshots): the watch sees neither, and neither is a run.
    if (this.opaque === 0 && !this.emptyStart) return `it holds nothing to read as ${format}: no record, or only records that carry no event of a run (summaries, snapshots); that is not a run`
    const types = [...this.types].map(([type, count]) => `${type} ×${count}`).join(', ')
    return `nothing in it was read as ${format}: its ${this.opaque} record(s) are all unread (${types}); is it the format named? Name the right one with --from`
  }

  refusal(file: string, format: string): TranscriptError {
    return new TranscriptError('VH_NOTHING_READ', file, null, this.sentence(format))
  }
}
