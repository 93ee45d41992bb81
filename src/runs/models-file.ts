// `run --models FILE`: a JSON list of {id, model, params_b, tool_format?}, checked strictly, one line per problem.
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { pathText, schemaMismatch, UserError } from "../common/index.ts";
import { MODEL_SETTING_FIELDS, SETTING_OPTIONS, settingFieldProblem, type ModelEntry } from "./settings.ts";

const FIELDS = ["id", "model", "params_b", ...MODEL_SETTING_FIELDS] as const;
const SHAPE = "a JSON list of {id, model, params_b, tool_format?}";
const NON_EMPTY = "a non-empty string";
const SIZE = "the model's size in billions of parameters (a number above 0)";

const nonEmpty = z.string({ error: NON_EMPTY }).regex(/\S/, { error: NON_EMPTY });

const modelEntrySchema = z.strictObject(
  {
    id: nonEmpty.describe("A short label: the report's name for the model."),
    model: nonEmpty.describe(
      "A .gguf path (relative to the file's folder), an hf: or https: URI, or with --server the server's model id.",
    ),
    params_b: z
      .number({ error: SIZE })
      .gt(0, { error: SIZE })
      .describe("The model's size in billions of parameters: where the scale chart places it."),
    tool_format: z
      .enum(SETTING_OPTIONS["tool-format"].choices, {
        // A file that sets the field sets a format: null is not "the run's", as it is in the manifest.
        error: (issue) =>
          (issue.input === null ? undefined : settingFieldProblem("tool_format", issue.input)) ?? "a format",
      })
      .optional()
      .describe("The tool-call format for this model alone (default: the run's --tool-format)."),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field "${issue.keys[0]}"; an entry's fields are ${FIELDS.join(", ")}`
        : "an object {id, model, params_b, tool_format?}",
  },
);

export const modelsFileSchema = z
  .array(modelEntrySchema, { error: SHAPE })
  .min(1, { error: SHAPE })
  .describe("A --models file: the models one run compares, each with its label and size.");

/**
 * The entries of a models file. `model` is a .gguf path (relative to the file's folder), an hf: or https: URI, or,
 * with `served`, a server's model id taken as it is. Anything else than the shape above (bad JSON, an unknown or
 * missing field, a field of the wrong type, an id or model listed twice) is one UserError naming the file, the entry
 * and the field. Example entry: {"id": "qwen2.5-3b", "model": "hf:Qwen/...", "params_b": 3.09}.
 */
export function readModelsFile(file: string, options: { readonly served?: boolean } = {}): ModelEntry[] {
  // A file that cannot be read is a file system error, which the command line prints as one line naming it.
  const text = readFileSync(file, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file}: not valid JSON (${(error as Error).message}); --models takes ${SHAPE}`);
  }
  const result = modelsFileSchema.safeParse(value);
  if (!result.success) throw new UserError(`${file}: ${problemLine(value, result.error.issues)}`);
  const entries = result.data.map((entry): ModelEntry => {
    const local = !options.served && !/^(hf:|https?:\/\/)/.test(entry.model);
    return {
      id: entry.id,
      model: local ? path.resolve(path.dirname(file), entry.model) : entry.model,
      paramsB: entry.params_b,
      ...(entry.tool_format !== undefined ? { toolFormat: entry.tool_format } : {}),
    };
  });
  for (const key of ["id", "model"] as const) {
    const seen = new Map<string, number>();
    entries.forEach((entry, i) => {
      const first = seen.get(entry[key]);
      if (first !== undefined)
        throw new UserError(
          `${file}: entry ${i + 1}: field ${key}: "${entry[key]}" is entry ${first + 1}'s too; each model runs once`,
        );
      seen.set(entry[key], i);
    });
  }
  return entries;
}

/** The first problem, as "entry 2 ("qwen"): field params_b: expected ...". */
function problemLine(value: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0]!;
  const [index, field] = first.path;
  if (typeof index !== "number") return `expected ${SHAPE}, with at least one model; got ${describe(value)}`;
  // An unknown field is named before the entry's other problems: it may be a misspelling of the missing one.
  const issue =
    issues.find((i) => i.code === "unrecognized_keys" && i.path.length === 1 && i.path[0] === index) ?? first;
  const { problem } = schemaMismatch(value, issue, describe);
  const where = `entry ${index + 1}`;
  if (issue !== first || field === undefined) return `${where}: ${problem}`;
  // Once the id and the model are good, the entry is named by its id.
  const label = field === "id" || field === "model" ? "" : ` ("${(value as { id: string }[])[index]!.id}")`;
  return `${where}${label}: field ${pathText(first.path.slice(1))}: ${problem}`;
}

/** A value as a short phrase for an error line: `"3b" (a string)`, `null`, `an object`. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return `${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)} (a string)`;
  return `${String(value)} (a ${typeof value})`;
}
