// The schema of a manifest.json, and the one line that names its first missing or mistyped field.
import { z } from "zod";
import { type Immutable, schemaMismatch, typesAgree } from "../common/index.ts";
import { DESIGN_IDS, type Wording } from "../designs/index.ts";
import { type RunFormat, TOOL_FORMATS } from "../toolcalls/index.ts";
import type { EmbeddingDtype } from "../search/index.ts";
import { SLUG_RULES } from "../corpus/index.ts";
import { arrayOf, boolOrNull, num, numOrNull, object, str, strOrNull } from "./manifest-fields.ts";
import { modelInfoSchema } from "./model-info-schema.ts";
import { settingsSchemaShape } from "./setting-schemas.ts";
import { MODEL_SETTING_FIELDS, type ModelEntryFields } from "./settings.ts";

export const MANIFEST_SCHEMA_VERSION = 2;

/** A field that older manifests held as any string: one of `values` now, still "a string" to a non-string. */
function stringOf<const V extends readonly string[]>(values: V) {
  return z.enum(values, {
    error: (issue) => (typeof issue.input === "string" ? `one of ${values.join(", ")}` : "a string"),
  });
}

export const manifestSettingsSchema = object({
  ...settingsSchemaShape(),
  max_turns: num,
  search_hits: num,
  read_section_max_words: num,
  prompts_sha256: str.describe(
    "sha256 over every prompt, the tool schemas and the forced prefix: edited prompts make a different study.",
  ),
}).describe("The settings that shape every answer, and the study's fixed limits and prompts.");

const modelEntryFieldsSchema = object({
  id: str,
  params_b: z.number({ error: "a number above 0" }).gt(0, { error: "a number above 0" }),
  ...settingsSchemaShape(MODEL_SETTING_FIELDS),
}).describe("The suite's or --models file's entry the model ran under: its label, size and own settings.");
typesAgree<Immutable<z.output<typeof modelEntryFieldsSchema>>, ModelEntryFields>(true);

const RUN_FORMATS = [...TOOL_FORMATS, "openai-chat"] as const;
typesAgree<(typeof RUN_FORMATS)[number], RunFormat>(true);

export const manifestModelSchema = modelInfoSchema
  .extend({
    files: arrayOf(object({ path: str, bytes: num, sha256: str })),
    entry: modelEntryFieldsSchema.optional(),
    toolFormat: stringOf(RUN_FORMATS)
      .optional()
      .describe("The tool-call format the agent designs wrote and read (absent in older manifests)."),
  })
  .describe("A loaded model as the llm stage describes it, with the sha256 of each of its files.");

const wordingRecordSchema = object({
  id: str,
  system: str,
  workflow_system: str,
  search_first: str,
  source_instruction: str,
  workflow_layout: str,
  tool_descriptions: object({ search_posts: str, read_section: str }),
}).describe("One wording: every text the designs send that a wording may change.");
typesAgree<Immutable<z.output<typeof wordingRecordSchema>>, Wording>(true);

const blogqaSchema = object({ version: str, git_commit: strOrNull, git_dirty: boolOrNull }).describe(
  "The blogqa that wrote it: package.json's version, and the git commit it ran from (null outside a checkout).",
);

export const manifestSessionSchema = object({
  blogqa: blogqaSchema.optional().describe("The blogqa this session ran (absent in manifests from before it)."),
  sections_sha256: str
    .optional()
    .describe(
      "The blog as this session read it (see corpus.sections_sha256); absent in manifests from before it. Sessions " +
        "that differ were resumed with --accept-new-reading.",
    ),
  started_at: str,
  finished_at: strOrNull,
  models: arrayOf(str),
  designs: arrayOf(stringOf(DESIGN_IDS)),
  limit: numOrNull.describe("--limit: the first N questions; null for all."),
  ran: numOrNull,
  skipped: numOrNull,
}).describe("One invocation of `run` on the folder: what it selected and when.");

const EMBEDDING_DTYPES = ["fp32", "fp16", "q8"] as const;
typesAgree<(typeof EMBEDDING_DTYPES)[number], EmbeddingDtype>(true);

export const manifestSchema = object({
  schema: z.literal(MANIFEST_SCHEMA_VERSION),
  blogqa: blogqaSchema,
  started_at: str.describe("The first session's start."),
  finished_at: strOrNull.describe("The last session's end (null while a session runs or after it was killed)."),
  settings: manifestSettingsSchema,
  models: arrayOf(manifestModelSchema).describe(
    "Every model that has run into this folder, in first-run order, as it was last loaded.",
  ),
  embedding: object(
    { model: str, dtype: stringOf(EMBEDDING_DTYPES), library: str, dimensions: num },
    "an object or null",
  ).nullable(),
  corpus: object({
    dir: str,
    sha256: str.describe("sha256 over the post files' names and bytes (and a split depth other than 3)."),
    sections_sha256: str
      .optional()
      .describe(
        "sha256 over every section as the model reads it (post, heading, text), as the last session read the " +
          "posts: the same bytes read by another blogqa into other text give another digest. Absent in manifests " +
          "from before it.",
      ),
    posts: arrayOf(str),
    sections: num,
    slug_rule: stringOf(SLUG_RULES)
      .optional()
      .describe(
        "How a post's path gave its slug where its frontmatter has none: file-name (its file or page-bundle folder's " +
          "name) or docusaurus (the same without the date Docusaurus reads from the path). Absent in older manifests: file-name.",
      ),
  }),
  questions: object({ file: str, sha256: str, count: num }),
  host: object({ node: str, platform: str, arch: str, cpu: str, cores: num, memory_bytes: num }),
  sessions: arrayOf(manifestSessionSchema),
  wordings: object({
    sha256: str.describe("sha256 over the texts, in order: other texts make another study."),
    texts: arrayOf(wordingRecordSchema),
  })
    .optional()
    .describe("Beyond the study: the prompt wordings of run --wordings, each in full; absent without it."),
}).describe("DIR/manifest.json: what produced a run folder's answers.");

/** The first field of a parsed manifest that is missing or of the wrong type, as "field settings.gpu: missing"; undefined if none. */
export function manifestProblem(value: unknown): string | undefined {
  const result = manifestSchema.safeParse(value);
  if (result.success) return undefined;
  const { path, problem } = schemaMismatch(value, result.error.issues[0]!);
  return path === "" ? problem : `field ${path}: ${problem}`;
}
