// Python compatibility: CPython's behaviour where the study's bytes depend on it (json.dumps, raw_decode, repr,
// exception wording, number formats). It imports nothing from the stages, so every stage may use it.
export { pyJsonDumps } from "./json-dumps.ts";
export { JSONDecodeError, rawDecode } from "./raw-decode.ts";
export { jsonLoads } from "./json-loads.ts";
export { pyRepr, pyTypeName } from "./repr.ts";
export { PyError } from "./exceptions.ts";
export { pyFixed, pyGrouped } from "./format.ts";
export { floatRepr, PyDict, toPlainJson } from "./values.ts";
