// Runs one tier of the tests with node's own runner: `unit` (every *.test.ts but the integration ones) or
// `integration`. Node 20's --test takes no globs, so the files are found here rather than by the shell's find.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const tier = process.argv[2];
if (tier !== "unit" && tier !== "integration") {
  console.error("usage: tsx scripts/test.ts unit|integration [node --test options]");
  process.exit(2);
}
const files = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && f.endsWith(".integration.test.ts") === (tier === "integration"))
  .map((f) => `test/${f}`)
  .sort();
const concurrency = tier === "unit" ? "2" : "1";
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...process.argv.slice(3), ...files],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
