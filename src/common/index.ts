// What any stage may use: errors a user can act on, file-system error lines, progress, atomic writes, sha256.
export { writeFileAtomic, writeFileAtomicAsync, writeThroughTemp } from "./atomic-write.ts";
export { sha256Hex, sha256File } from "./sha256.ts";
export { commonPrefixLength } from "./common-prefix.ts";
export { UserError } from "./errors.ts";
export { checkWritableFolder, describeFsError } from "./fs-errors.ts";
export type { OnTick, ProgressTick } from "./progress.ts";
