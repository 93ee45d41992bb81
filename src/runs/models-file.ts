// `run --models FILE`: a JSON list of {id, model, params_b, tool_format?}, checked strictly, one line per problem.
import { readFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "../common/index.ts";
import { MODEL_SETTING_FIELDS, settingFieldProblem, type ModelEntry, type RunSettings } from "./settings.ts";

const FIELDS = ["id", "model", "params_b", ...MODEL_SETTING_FIELDS] as const;
const SHAPE = "a JSON list of {id, model, params_b, tool_format?}";

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
  if (!Array.isArray(value) || value.length === 0)
    throw new UserError(`${file}: expected ${SHAPE}, with at least one model; got ${describe(value)}`);
  const entries = value.map((item, i) => readEntry(item, `${file}: entry ${i + 1}`, path.dirname(file), options));
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

function readEntry(item: unknown, where: string, dir: string, options: { readonly served?: boolean }): ModelEntry {
  if (typeof item !== "object" || item === null || Array.isArray(item))
    throw new UserError(`${where}: expected an object {id, model, params_b, tool_format?}, got ${describe(item)}`);
  const record = item as Record<string, unknown>;
  const unknown = Object.keys(record).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined)
    throw new UserError(`${where}: unknown field "${unknown}"; an entry's fields are ${FIELDS.join(", ")}`);
  const text = (field: string): string => {
    const v = record[field];
    if (v === undefined) throw new UserError(`${where}: field ${field}: missing`);
    if (typeof v !== "string" || v.trim() === "")
      throw new UserError(`${where}: field ${field}: expected a non-empty string, got ${describe(v)}`);
    return v;
  };
  const id = text("id");
  const model = text("model");
  const params = record.params_b;
  if (params === undefined) throw new UserError(`${where} ("${id}"): field params_b: missing`);
  if (typeof params !== "number" || !Number.isFinite(params) || params <= 0)
    throw new UserError(
      `${where} ("${id}"): field params_b: expected the model's size in billions of parameters (a number above 0), ` +
        `got ${describe(params)}`,
    );
  const format = record.tool_format;
  if (format !== undefined) {
    const problem = settingFieldProblem("tool_format", format);
    if (problem !== undefined || format === null)
      throw new UserError(
        `${where} ("${id}"): field tool_format: expected ${problem ?? "a format"}, got ${describe(format)}`,
      );
  }
  const local = !options.served && !/^(hf:|https?:\/\/)/.test(model);
  return {
    id,
    model: local ? path.resolve(dir, model) : model,
    paramsB: params,
    ...(format !== undefined ? { toolFormat: format as RunSettings["toolFormat"] } : {}),
  };
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
