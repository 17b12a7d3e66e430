import { describeWildFormat } from '../../helpers/wild.js'
import { countClaudeCalls } from './claude-raw-count.js'

describeWildFormat({ folder: 'claude-session', format: 'claude-session-jsonl', count: countClaudeCalls })
