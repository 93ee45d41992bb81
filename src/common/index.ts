// What any stage may use: errors a user can act on, file-system error lines, progress, atomic writes, sha256,
// schemas, reading a file line by line, the bounds of a number option, where the hub is, and the environment.
export { writeFileAtomic, writeFileAtomicAsync, writeThroughTemp } from "./atomic-write.ts";
export { filesFingerprint, sha256Hex, sha256File } from "./sha256.ts";
export { commonPrefixLength } from "./common-prefix.ts";
export { clipLines, clipText } from "./clip.ts";
export { UserError } from "./errors.ts";
export { describeRange, inRange, type NumberRange, rangeProblem } from "./number-range.ts";
export { checkWritableFolder, describeFsError, fsUserError } from "./fs-errors.ts";
export { readLines } from "./file-lines.ts";
export { hubEndpoint, hubHeaders, hubToken } from "./hub.ts";
export { environment, withEnvironment } from "./environment.ts";
export type { OnTick, ProgressTick } from "./progress.ts";
export { formatDuration } from "./progress.ts";
export { type SchemaMismatch, describeValue, pathText, schemaMismatch } from "./schema-errors.ts";
export * as field from "./schema-fields.ts";
export { type Immutable, typesAgree } from "./schema-types.ts";
