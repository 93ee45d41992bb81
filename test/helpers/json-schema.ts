// Checks values against the JSON Schema files in docs/schemas/ with ajv, as a tool other than blogqa would.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { SCHEMAS_DIR } from "../../src/runs/index.ts";
import { repoRoot } from "./run-cli.ts";

/** A check by docs/schemas/NAME: undefined when the value fits, else ajv's errors as one line. */
export function jsonSchemaCheck(name: string): (value: unknown) => string | undefined {
  const schema = JSON.parse(readFileSync(path.join(repoRoot, SCHEMAS_DIR, name), "utf8"));
  const validate = new Ajv2020({ allErrors: false }).compile(schema);
  return (value) => (validate(value) ? undefined : new Ajv2020().errorsText(validate.errors));
}
