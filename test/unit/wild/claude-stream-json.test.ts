import { describeWildFormat } from '../../helpers/wild.js'
import { countClaudeCalls } from './claude-raw-count.js'

describeWildFormat({ folder: 'claude-stream-json', format: 'claude-code/stream-json', count: countClaudeCalls })
