// `npm run docs:commands`: writes docs/commands.md from the --help of blogqa and of every command.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { COMMAND_REFERENCE, commandReference } from "./docs/command-reference.ts";

writeFileSync(path.resolve(import.meta.dirname, "..", COMMAND_REFERENCE), await commandReference());
console.log(COMMAND_REFERENCE);
