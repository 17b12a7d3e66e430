export { TRACE_CODES, TraceSpecError, TraceTranscriptError, TraceAdvisoryError, renderRefusal, renderRefusals } from './errors.js'
export type { TraceCode, TraceRefusal } from './errors.js'
export { SPEC_FORMAT } from './spec/model.js'
export type {
  TraceSpec,
  Expectation,
  ExpectationKind,
  KindName,
  KindOf,
  CountBound,
  RangeBound,
  FieldMatcher,
  CallSelector,
  Severity,
  OnUnknown,
  ToolAvailability,
  ApiErrorStatus,
  UsageField,
  Trend,
  Aggregate,
} from './spec/model.js'
export { KIND_NAMES, KIND_ALIASES } from './spec/kinds.js'
export { readSpec, readSpecFile, parseSpec, parseSpecValue } from './spec/read.js'
export type { SpecReadResult } from './spec/read.js'
export { spec } from './spec/builder.js'
export type { SpecInput } from './spec/builder.js'
export type { TraceSpecDocument, ExpectationDocument, ExpectDocument } from './spec/schema.js'
export { traceSpecDocumentSchema } from './spec/schema.js'
export { traceSpecJsonSchema, TRACE_SPEC_SCHEMA_FILE } from './spec/json-schema.js'
export { markAdvisory } from './spec/advisory.js'
export { TranscriptReader, readTranscriptStream, isEmissionBatch, DEFAULT_TRACE_MAX_LINE_BYTES } from './ir/read.js'
export type { TranscriptReadOptions, TranscriptReadResult, TranscriptFormat, TranscriptOrigin, EmissionBatch, TranscriptChunk } from './ir/read.js'
export { openTranscriptPath, openTranscriptPathSync, openTranscriptText, openTranscriptStream, convertedAdapterRef, CONVERSION_RUN } from './ir/any-format.js'
export type { OpenedTranscript } from './ir/any-format.js'
export { MetaharnessIrReader, METAHARNESS_EVENT_STREAM, CONTROL_PLANE_EVENTS } from './ir/event-stream.js'
export { StreamJsonIrReader, CLAUDE_CODE_STREAM_JSON } from './ir/stream-json.js'
export type * from './ir/types.js'
export { TraceCheck, checkTranscript, checkTranscriptFile, checkTranscriptFileSync, checkTranscriptText, checkAnyFormatText, checkEvents, checkEventStream } from './check/check.js'
export type { CheckOptions, CheckEventsOptions, AnyFormatCheckOptions } from './check/check.js'
export { resolveSpec, checkAny, checkAnySync } from './check/input.js'
export type { TraceTranscript, TraceSpecInput } from './check/input.js'
export { TraceChecker } from './check/checker.js'
export { redactReport, reportExitCode, gappedExpectations } from './check/report.js'
export { reportToText, verdictSentence } from './check/render.js'
export { describeOutcome, describeReason } from './check/outcome.js'
export type { Outcome, UnknownReason, Citation } from './check/outcome.js'
export { CensusSink, inspectTranscript, inspectTranscriptFile, censusToText } from './census.js'
export type { TraceCensus, ToolTraffic, CensusStep } from './census.js'
export type * from './report-types.js'
export { TRACE_REPORT_FORMAT } from './report-types.js'
