// The shape of a manifest.json, checked field by field so that a damaged one is named, not crashed on.
import { MODEL_SETTING_FIELDS, SETTING_FIELDS, settingFieldProblem } from "./settings.ts";

/** A field's check: what was expected, or undefined when the value fits. */
type Check = (value: unknown) => string | undefined;
/** An object's checks by field name. */
type Shape = Readonly<Record<string, Check>>;

const is =
  (type: "string" | "number" | "boolean"): Check =>
  (v) =>
    typeof v === type ? undefined : `a ${type}`;
const str = is("string");
const num = is("number");
const bool = is("boolean");
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null ? undefined : orNullText(check(v));
const orNullText = (problem: string | undefined) =>
  problem === undefined || /^[.[]/.test(problem) ? problem : `${problem} or null`;
const arrayOf =
  (check: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return "an array";
    for (const [i, item] of v.entries()) {
      const problem = check(item);
      if (problem) return `[${i}]${problem.startsWith(".") ? "" : ": "}${problem}`;
    }
    return undefined;
  };
/** A field an older manifest may lack: checked when present. */
const OPTIONAL = new WeakSet<Check>();
const optional = (check: Check): Check => {
  const wrapped: Check = (v) => check(v);
  OPTIONAL.add(wrapped);
  return wrapped;
};
/** An object whose fields pass `shape`; a problem inside reads ".field: expected". */
const object =
  (shape: Shape): Check =>
  (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return "an object";
    const record = v as Record<string, unknown>;
    for (const [field, check] of Object.entries(shape)) {
      if (!(field in record)) {
        if (OPTIONAL.has(check)) continue;
        return `.${field}: missing`;
      }
      const problem = check(record[field]);
      if (problem) return `.${field}${problem.startsWith(".") || problem.startsWith("[") ? "" : ": "}${problem}`;
    }
    return undefined;
  };

const settingsShape: Shape = {
  ...Object.fromEntries(SETTING_FIELDS.map((field): [string, Check] => [field, (v) => settingFieldProblem(field, v)])),
  max_turns: num,
  search_hits: num,
  read_section_max_words: num,
  prompts_sha256: str,
};

// Model entries are ModelInfo as the llm stage wrote it: the fields the readers use are checked.
const modelShape: Shape = {
  id: str,
  path: str,
  files: arrayOf(object({ path: str, bytes: num, sha256: str })),
  architecture: str,
  chatTemplateSha256: str,
  backend: str,
  gpuLayers: num,
  deviceNames: arrayOf(str),
  nodeLlamaCppVersion: str,
  llamaCppRelease: str,
  decoding: object({
    repetitionPenalty: orNull(num),
    stopTokens: orNull(arrayOf(num)),
    generationConfig: orNull(object({ path: str, sha256: str })),
    note: str,
  }),
  // A suite's or --models file's entry: the label, the size on the scale chart, and the model's own settings.
  entry: optional(
    object({
      id: str,
      params_b: (v) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? undefined : "a number above 0"),
      ...Object.fromEntries(
        MODEL_SETTING_FIELDS.map((field): [string, Check] => [field, (v) => settingFieldProblem(field, v)]),
      ),
    }),
  ),
};

const manifestShape: Shape = {
  blogqa: object({ version: str, git_commit: orNull(str), git_dirty: orNull(bool) }),
  started_at: str,
  finished_at: orNull(str),
  settings: object(settingsShape),
  models: arrayOf(object(modelShape)),
  embedding: orNull(object({ model: str, dtype: str, library: str, dimensions: num })),
  corpus: object({ dir: str, sha256: str, posts: arrayOf(str), sections: num }),
  questions: object({ file: str, sha256: str, count: num }),
  host: object({ node: str, platform: str, arch: str, cpu: str, cores: num }),
  sessions: arrayOf(
    object({
      started_at: str,
      finished_at: orNull(str),
      models: arrayOf(str),
      designs: arrayOf(str),
      limit: orNull(num),
      ran: orNull(num),
      skipped: orNull(num),
    }),
  ),
};

/** The first field of a parsed manifest that is missing or of the wrong type, as "field settings.gpu: missing"; undefined if none. */
export function manifestProblem(value: unknown): string | undefined {
  const problem = object(manifestShape)(value);
  if (problem === undefined) return undefined;
  const at = problem.match(/^\.([^:]+): (.*)$/);
  return at ? `field ${at[1]}: ${at[2] === "missing" ? "missing" : `expected ${at[2]}`}` : `expected ${problem}`;
}
