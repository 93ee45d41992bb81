// Checks one parsed answers.jsonl line against its schema: a line of another shape is named with its field instead
// of being scored wrong, or dropped, without a word.
import { describeValue, schemaMismatch, type SchemaMismatch } from "../common/index.ts";
import { ANSWER_SCHEMA_VERSION, type AnswerRecord, onePostLineSchema, twoPostLineSchema } from "./answer-types.ts";

/**
 * A parsed line as an AnswerRecord, or the first field that does not fit. The design is read from `design`
 * or, in logs written before the name changed, `variant`; a line with both must agree.
 */
export function answerFromLine(value: unknown): { record: AnswerRecord } | { mismatch: SchemaMismatch } {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { mismatch: { path: "", problem: "not a JSON object" } };
  const line = value as Record<string, unknown>;
  if (!Object.hasOwn(line, "schema")) return { mismatch: { path: "schema", problem: "missing" } };
  if (line.schema !== ANSWER_SCHEMA_VERSION) {
    return {
      mismatch: {
        path: "schema",
        problem: `log schema ${JSON.stringify(line.schema)}; this blogqa reads schema ${ANSWER_SCHEMA_VERSION}`,
      },
    };
  }
  let normalized = line;
  if (Object.hasOwn(line, "variant")) {
    if (Object.hasOwn(line, "design") && line.variant !== line.design) {
      return {
        mismatch: {
          path: "design",
          problem: `${JSON.stringify(line.design)} disagrees with the line's variant ${JSON.stringify(line.variant)}`,
        },
      };
    }
    const { variant, ...rest } = line;
    normalized = { ...rest, design: variant };
  }
  // The gold fields pick the schema, so that a bad line is told about its own shape's fields, not both shapes'.
  const schema = Object.hasOwn(line, "gold_posts") ? twoPostLineSchema : onePostLineSchema;
  const result = schema.safeParse(normalized);
  // The line as written, not zod's copy of it: fields a newer writer added stay on the record.
  if (result.success) return { record: normalized as AnswerRecord };
  const mismatch = schemaMismatch(normalized, result.error.issues[0]!, describeValue);
  // Name the field as the line spells it.
  const path =
    mismatch.path === "design" && Object.hasOwn(line, "variant") && !Object.hasOwn(line, "design")
      ? "variant"
      : mismatch.path;
  return { mismatch: { ...mismatch, path } };
}
