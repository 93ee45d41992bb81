// The file formats as JSON Schema documents, for docs/schemas/: what other tools can check blogqa's files with.
import { z } from "zod";
import { questionLineSchema } from "../corpus/index.ts";
import { answerLineSchema } from "./answer-types.ts";
import { judgmentLineSchema } from "./judgment-log.ts";
import { manifestSchema } from "./manifest-schema.ts";
import { modelsFileSchema } from "./models-file.ts";
import { withheldPairSchema } from "./withheld-pair.ts";

/** Where the documents live, from the repository's root. */
export const SCHEMAS_DIR = "docs/schemas";

const SCHEMAS = {
  "answers-line.schema.json": answerLineSchema,
  "judgments-line.schema.json": judgmentLineSchema,
  "manifest.schema.json": manifestSchema,
  "models-file.schema.json": modelsFileSchema,
  "questions.schema.json": questionLineSchema,
  "withheld-pair.schema.json": withheldPairSchema,
} as const;

/**
 * Each document's file name and text. They describe what the readers accept ("input": fields the writer drops when
 * undefined are optional), without the checks only code makes (a questions line with both shapes, ids listed twice).
 */
export function jsonSchemaFiles(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SCHEMAS).map(([name, schema]) => [
      name,
      `${JSON.stringify(z.toJSONSchema(schema, { io: "input" }), null, 2)}\n`,
    ]),
  );
}
