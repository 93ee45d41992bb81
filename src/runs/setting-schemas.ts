// The schema of each setting's manifest field, built from its yargs option as settings.ts reads and writes it.
import { z } from "zod";
import type { Options } from "yargs";
import {
  isLeftOutAtDefault,
  SETTING_FIELDS,
  SETTING_OPTIONS,
  settingFieldProblem,
  type SettingFields,
} from "./settings.ts";

/**
 * The schema of manifest field `field` (a setting's snake_case name): its choices, or its type, or null for "not
 * set". A coerced option's stored value is whatever its coerce function returns, so any JSON value may be right.
 * Messages are settingFieldProblem's, the one wording of what a setting takes.
 */
function settingSchema<F extends keyof SettingFields>(field: F): FieldSchema<F> {
  const key = field.replaceAll("_", "-") as keyof typeof SETTING_OPTIONS;
  const option: Options = SETTING_OPTIONS[key];
  const error = (issue: { readonly input?: unknown }) => settingFieldProblem(field, issue.input);
  const worded = (option as { readonly range?: { readonly word?: string } }).range?.word;
  if (option.coerce && worded === undefined) return z.unknown() as unknown as FieldSchema<F>;
  const base =
    worded !== undefined
      ? z
          .union([z.literal(worded), z.number()], { error })
          .refine((value) => settingFieldProblem(field, value) === undefined, {
            error: (issue) => `expected ${settingFieldProblem(field, issue.input)}, got ${String(issue.input)}`,
          })
      : option.choices
        ? z.enum(option.choices as [string, ...string[]], { error })
        : option.type === "number"
          ? z.number({ error }).refine((value) => settingFieldProblem(field, value) === undefined, {
              // a refinement's message stands alone: it says what was expected itself
              error: (issue) => `expected ${settingFieldProblem(field, issue.input)}, got ${String(issue.input)}`,
            })
          : option.type === "boolean"
            ? z.boolean({ error })
            : z.string({ error });
  // The option's own definition types the field (SettingFields); this schema checks the same definition.
  const nullable = base.nullable();
  return (isLeftOutAtDefault(field) ? nullable.optional() : nullable) as unknown as FieldSchema<F>;
}

/** A field's schema: an optional one for a setting the manifest may leave out, so that zod types its key optional. */
type FieldSchema<F extends keyof SettingFields> = undefined extends SettingFields[F]
  ? z.ZodOptional<z.ZodType<Exclude<SettingFields[F], undefined>>>
  : z.ZodType<SettingFields[F]>;

/** A schema for each of `fields` (all settings by default), keyed by manifest field. */
export function settingsSchemaShape<F extends keyof SettingFields>(
  fields: readonly F[] = SETTING_FIELDS as readonly F[],
): { [K in F]: FieldSchema<K> } {
  return Object.fromEntries(fields.map((field) => [field, settingSchema(field)])) as unknown as {
    [K in F]: FieldSchema<K>;
  };
}
