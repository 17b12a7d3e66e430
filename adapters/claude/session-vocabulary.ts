import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'
import { CLAUDE_SHARED_RECORDS, CLAUDE_WRITTEN_AGAINST } from './stream-json-vocabulary.js'

const NO_CALL = (reason: string): RecordMeaning => ({ carriesNoToolCall: reason })

/** `~/.claude/projects/<cwd-slug>/<session-id>.jsonl`: the shared records, plus the file's own bookkeeping. */
export const CLAUDE_SESSION_VOCABULARY: RecordVocabulary = {
  format: 'claude-session-jsonl',
  harness: 'claude-code',
  writtenAgainst: CLAUDE_WRITTEN_AGAINST,
  records: {
    ...CLAUDE_SHARED_RECORDS,
    summary: NO_CALL('the title of a compacted or resumed conversation (`summary`, `leafUuid`)'),
    'file-history-snapshot': NO_CALL('the harness’s backup of files before an edit; the edit is its own tool_use'),
    attachment: NO_CALL('context the harness attached to a turn (hook output, todo reminders, file mentions); no call by the model'),
    'queue-operation': NO_CALL('a prompt queued or dequeued while the model was busy; the prompt itself arrives as a user record'),
    'last-prompt': NO_CALL('the last prompt typed, kept for resume'),
    progress: NO_CALL('a running tool’s or subagent’s progress; a subagent’s calls are in its own transcript'),
    'permission-mode': NO_CALL('the permission mode in force'),
    mode: NO_CALL('the input mode in force'),
    'custom-title': NO_CALL('a title the user gave the session'),
    'ai-title': NO_CALL('a title the harness generated for the session'),
    'agent-name': NO_CALL('the subagent’s display name'),
    tag: NO_CALL('a tag the user put on the session'),
    'pr-link': NO_CALL('a pull request the session is linked to'),
    'worktree-state': NO_CALL('the git worktree the session runs in'),
  },
}
