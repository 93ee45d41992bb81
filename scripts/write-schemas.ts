// `npm run schemas`: writes docs/schemas/*.schema.json from the zod schemas the readers check files with.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { jsonSchemaFiles, SCHEMAS_DIR } from "../src/runs/index.ts";

const dir = path.resolve(import.meta.dirname, "..", SCHEMAS_DIR);
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(jsonSchemaFiles())) {
  writeFileSync(path.join(dir, name), text);
  console.log(path.join(SCHEMAS_DIR, name));
}
