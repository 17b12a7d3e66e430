export * from './provider/index.js'
export { RecorderError, type RecorderErrorCode } from './errors.js'
export { serveProvider, type ServeOptions, type Served } from './serve.js'
