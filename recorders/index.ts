export * from './provider/index.js'
export { RecorderError, type RecorderErrorCode } from './errors.js'
export { serveProvider, type ServeOptions, type Served } from './serve.js'
export { recordLaunch, constructEnvironment, type LaunchOptions, type LaunchRecord, type LaunchResult } from './launch.js'
