// Small helpers any stage may use: atomic writes, sha256, common prefixes. Imports no stage.
export { writeFileAtomic, writeFileAtomicAsync, writeThroughTemp } from "./atomic-write.ts";
export { sha256Hex, sha256File } from "./sha256.ts";
export { commonPrefixLength } from "./common-prefix.ts";
