import { parentPort, workerData } from 'node:worker_threads'
import { readSpecFile } from '../trace/spec/read.js'
import { checkFleetTask } from './check-one.js'
import type { FleetCheckSetup, FleetTask } from './messages.js'

// A fleet worker: reads the specification once, then checks each transcript it is sent.
const setup = workerData as FleetCheckSetup
const spec = readSpecFile(setup.specPath)
const port = parentPort
if (port === null) throw new Error('the fleet worker runs only as a worker thread')
port.on('message', (task: FleetTask) => {
  checkFleetTask(spec, setup, task).then(
    (result) => port.postMessage(result),
    (error: unknown) => port.postMessage({ index: task.index, outcome: 'refused', message: `${task.source}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, exit: 2 }),
  )
})
