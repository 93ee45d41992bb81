// docs/commands.md is the command line's own --help: regenerated here in memory, it must match the file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { COMMAND_REFERENCE, commandReference } from "../../scripts/docs/command-reference.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

test("docs/commands.md is every command's --help as the command line prints it now", async () => {
  const written = readFileSync(path.join(repoRoot, COMMAND_REFERENCE), "utf8");
  const now = await commandReference();
  assert.ok(written === now, `${COMMAND_REFERENCE} is stale: run \`npm run docs:commands\` and commit it`);
});

test("the reference holds the top level, every command and the questions subcommands", async () => {
  const headings = (await commandReference()).split("\n").filter((l) => l.startsWith("## "));
  for (const name of ["blogqa", "blogqa run", "blogqa experiment", "blogqa smoke", "blogqa questions check"])
    assert.ok(headings.includes(`## ${name}`), `${name} in ${headings.join(", ")}`);
});
