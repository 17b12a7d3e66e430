// `npm run generate:schema`: writes the trace-spec/1 JSON Schema the package ships, from the zod
// schema the reader parses with. A unit test fails when the committed file is out of date.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { TRACE_SPEC_SCHEMA_FILE, traceSpecJsonSchemaText } from '../src/trace/spec/json-schema.js'

const target = fileURLToPath(new URL(`../${TRACE_SPEC_SCHEMA_FILE}`, import.meta.url))
writeFileSync(target, traceSpecJsonSchemaText())
console.log(`wrote ${TRACE_SPEC_SCHEMA_FILE}`)
