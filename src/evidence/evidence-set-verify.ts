import { readdirSync } from 'node:fs'
import { INPUT_LIMITS, readBoundedFile, readBoundedText } from '../util/read-input.js'
import { join } from 'node:path'
import { sha256Hex } from '../events/digest.js'
import { EVIDENCE_SET_MANIFEST, countRecords, evidenceSetManifestSchema, type EvidenceSetFile, type EvidenceSetManifest } from './set-manifest.js'
import { describeJsonSyntaxError } from '../util/json-syntax.js'

/** Why a folder is not the complete evidence set its manifest says it is. */
export type EvidenceSetProblemCode =
  /** No `evidence-set.json`: the set was never finished, or it is not a set. */
  | 'VH_EVIDENCE_SET_NO_MANIFEST'
  /** The manifest is not JSON, or not `vitest-harness.evidence-set/1`. */
  | 'VH_EVIDENCE_SET_BAD_MANIFEST'
  /** A document the manifest lists is not in the folder. */
  | 'VH_EVIDENCE_SET_MISSING'
  /** A document's bytes are not the bytes the manifest digested. */
  | 'VH_EVIDENCE_SET_CHANGED'
  /** A file the manifest does not list. */
  | 'VH_EVIDENCE_SET_EXTRA'
  /** The records, or the records by status, are not the counts the manifest states. */
  | 'VH_EVIDENCE_SET_COUNTS'

export interface EvidenceSetProblem {
  readonly code: EvidenceSetProblemCode
  /** The file the problem is about: a document, or the manifest. */
  readonly file: string
  readonly message: string
}

export interface EvidenceSetCheck {
  /** The manifest, when it could be read (even if the folder does not match it). */
  readonly manifest?: EvidenceSetManifest
  /** The documents, manifest excluded, in name order. */
  readonly files: readonly string[]
  readonly problems: readonly EvidenceSetProblem[]
}

/** Checks that `dir` holds exactly the documents its manifest lists, byte for byte, with its counts. */
export function verifyEvidenceSet(dir: string): EvidenceSetCheck {
  const manifestFile = join(dir, EVIDENCE_SET_MANIFEST)
  const names = readdirSync(dir)
    .filter((name) => name !== EVIDENCE_SET_MANIFEST)
    .sort()
  let text: string
  try {
    text = readBoundedText(manifestFile, { maxBytes: INPUT_LIMITS.spec, what: 'evidence-set manifest' })
  } catch {
    return { files: names, problems: [{ code: 'VH_EVIDENCE_SET_NO_MANIFEST', file: manifestFile, message: `no ${EVIDENCE_SET_MANIFEST}: nothing says which documents this set holds, so a missing one could not be told from one never written` }] }
  }
  let parsed: ReturnType<typeof evidenceSetManifestSchema.safeParse>
  try {
    parsed = evidenceSetManifestSchema.safeParse(JSON.parse(text))
  } catch (error) {
    return { files: names, problems: [{ code: 'VH_EVIDENCE_SET_BAD_MANIFEST', file: manifestFile, message: `not JSON: ${describeJsonSyntaxError(error)}` }] }
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { files: names, problems: [{ code: 'VH_EVIDENCE_SET_BAD_MANIFEST', file: manifestFile, message: `${issue?.path.join('.') || 'the manifest'}: ${issue?.message ?? 'not an evidence-set manifest'}` }] }
  }
  const manifest = parsed.data
  const problems: EvidenceSetProblem[] = []
  const present: EvidenceSetFile[] = []
  for (const [name, digest] of Object.entries(manifest.documents)) {
    if (!names.includes(name)) {
      problems.push({ code: 'VH_EVIDENCE_SET_MISSING', file: join(dir, name), message: `the manifest of run ${manifest.run_id} lists this document and it is not in the folder` })
      continue
    }
    const bytes = readBoundedFile(join(dir, name), { maxBytes: INPUT_LIMITS.evidence, what: 'evidence document' })
    present.push({ name, bytes })
    if (sha256Hex(bytes) !== digest) problems.push({ code: 'VH_EVIDENCE_SET_CHANGED', file: join(dir, name), message: `its sha256 is ${sha256Hex(bytes)}; the manifest of run ${manifest.run_id} says ${digest}` })
  }
  for (const name of names.filter((candidate) => !Object.hasOwn(manifest.documents, candidate))) {
    problems.push({ code: 'VH_EVIDENCE_SET_EXTRA', file: join(dir, name), message: `the manifest of run ${manifest.run_id} does not list this file` })
  }
  if (problems.length === 0) {
    const { records, counts } = countRecords(present)
    const stated = manifest.counts
    if (records !== manifest.records || counts.passed !== stated.passed || counts.failed !== stated.failed || counts.inconclusive !== stated.inconclusive) {
      problems.push({
        code: 'VH_EVIDENCE_SET_COUNTS',
        file: manifestFile,
        message: `the documents hold ${records} record(s): ${counts.passed} passed, ${counts.failed} failed, ${counts.inconclusive} inconclusive; the manifest says ${manifest.records}: ${stated.passed}, ${stated.failed}, ${stated.inconclusive}`,
      })
    }
  }
  return { manifest, files: names, problems }
}
