export * from './provider/index.js'
export { RecorderError, type RecorderErrorCode } from './errors.js'
