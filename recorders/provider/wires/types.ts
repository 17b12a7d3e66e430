import type { JsonValue } from '../json.js'

/** One scripted model turn, wire-neutral. */
export interface ScriptedTurn {
  readonly text?: string
  readonly reasoning?: string
  /**
   * `namespace`: the tool namespace a Responses call names (Codex's `multi_agent_v1` tools); `input`:
   * a freeform tool's raw text (Codex's code-mode `exec`), a Responses `custom_tool_call`. Other
   * wires have neither, and send `arguments`.
   */
  readonly toolCalls?: readonly { readonly name: string; readonly arguments: JsonValue; readonly input?: string; readonly namespace?: string }[]
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number; readonly cachedTokens: number }
  /** `end`, `tool_use`, `max_tokens`, or a wire's own value; derived from the content when absent. */
  readonly stop?: string
}

/** What a wire needs beside the turn to write deterministic bytes. */
export interface TurnContext {
  /** 1-based: the number of assistant turns already in the conversation, plus one. */
  readonly turn: number
  /** What the turn's ids carry: `001` for the main conversation's first turn, `t1_001` for the first thread's. */
  readonly tag: string
  readonly model: string
  readonly createdAt: number
  readonly streamed: boolean
  /** Chat Completions `stream_options.include_usage`. */
  readonly includeUsage: boolean
}

export function pad(turn: number): string {
  return String(turn).padStart(3, '0')
}

/** Splits text in two at the middle, as the upstream emulator does, so deltas are exercised. */
export function halves(text: string): string[] {
  if (text.length < 2) return [text]
  const middle = Math.floor(text.length / 2)
  return [text.slice(0, middle), text.slice(middle)]
}

export function usageOf(turn: ScriptedTurn): { inputTokens: number; outputTokens: number; cachedTokens: number } {
  return turn.usage ?? { inputTokens: 42, cachedTokens: 7, outputTokens: turn.toolCalls && turn.toolCalls.length > 0 ? 8 : 4 }
}

export function argumentsText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** The neutral stop: explicit, else `tool_use` when the turn calls tools, else `end`. */
export function neutralStop(turn: ScriptedTurn): string {
  return turn.stop ?? (turn.toolCalls && turn.toolCalls.length > 0 ? 'tool_use' : 'end')
}
