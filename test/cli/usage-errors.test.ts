// Usage errors as one line that says what to type: the nearest command or option, and two dashes where one was.
import { test } from "node:test";
import assert from "node:assert/strict";
import { npmOptionsHint, usageError } from "../../src/commands/usage-errors.ts";

const KNOWN = ["help", "version", "retriever", "context-size", "content", "models", "out", "h"];

test("a misspelt option gets the nearest known one; one too far from any gets none", () => {
  assert.equal(
    usageError("Unknown argument: retriver", ["run", "--retriver", "bm25"], KNOWN),
    "unknown option --retriver; did you mean --retriever?",
  );
  assert.equal(
    usageError("Unknown arguments: contxt-size, modles", ["run", "--contxt-size", "9", "--modles", "m.json"], KNOWN),
    "unknown option --contxt-size; did you mean --context-size? unknown option --modles; did you mean --models?",
  );
  assert.equal(usageError("Unknown argument: bogus", ["cost", "--bogus"], KNOWN), "Unknown argument: bogus");
});

test("a renamed option names its new name, on a command that has it; elsewhere it is an unknown option", () => {
  assert.equal(
    usageError("Unknown argument: variants", ["run", "--variants", "agent"], [...KNOWN, "designs"]),
    "--variants is now called --designs: give --designs",
  );
  assert.equal(
    usageError("Unknown argument: variants", ["cost", "--variants", "agent"], KNOWN),
    "Unknown argument: variants",
  );
});

test("a long option written with one dash is told it needs two", () => {
  assert.equal(
    usageError("Unknown arguments: r, e, t, i, v", ["run", "-retriever", "bm25"], KNOWN),
    "-retriever: a long option takes two dashes: --retriever",
  );
  assert.equal(
    usageError("Unknown arguments: b, o, g, u, s", ["run", "-bogus"], KNOWN),
    "-bogus: a long option takes two dashes (--bogus), and there is no option --bogus",
  );
});

test("an unknown command names what was typed; other messages pass as they are", () => {
  assert.equal(usageError("Did you mean run?", ["rnu"], KNOWN), 'unknown command "rnu". Did you mean run?');
  assert.equal(usageError("Name a command.", [], KNOWN), "Name a command.");
});

test("under npm run, an option npm kept for itself is named, with the command that passes it on", () => {
  const known = ["quant", "limit", "out", "cache-dir"];
  // `npm run experiment --quant q8_0`: npm sets its quant to true and hands on the word q8_0.
  assert.equal(
    npmOptionsHint(["experiment", "q8_0"], known, {
      npm_lifecycle_event: "experiment",
      npm_lifecycle_script: "node bin/blogqa.cjs experiment",
      npm_config_quant: "true",
    }),
    "npm run kept --quant for itself (options before `--` are npm's); put blogqa's options after `--`: " +
      "npm run experiment -- --quant q8_0",
  );
  // `npm run blogqa experiment --limit 2 --cache-dir=x`: the command word is typed; a value npm kept is given back.
  assert.equal(
    npmOptionsHint(["experiment"], known, {
      npm_lifecycle_event: "blogqa",
      npm_lifecycle_script: "node bin/blogqa.cjs",
      npm_config_limit: "true",
      npm_config_cache_dir: "x",
    }),
    "npm run kept --limit, --cache-dir for itself (options before `--` are npm's); put blogqa's options after " +
      "`--`: npm run blogqa -- experiment --limit --cache-dir x",
  );
  const env = { npm_config_quant: "true", npm_lifecycle_script: "node bin/blogqa.cjs experiment" };
  assert.equal(npmOptionsHint(["experiment", "q8_0"], known, env), undefined, "not started by npm run");
  assert.equal(npmOptionsHint(["experiment", "q8_0"], known, { ...env, npm_lifecycle_event: "npx" }), undefined);
  assert.equal(
    npmOptionsHint(["experiment", "--quant", "q8_0"], known, { ...env, npm_lifecycle_event: "experiment" }),
    undefined,
    "blogqa got the option itself",
  );
});

test("npm's own environment is no option kept: another script's child, or the prefix npm sets on every run", () => {
  const known = ["prefix", "quant"];
  const npm = { npm_config_prefix: "/usr", npm_config_global_prefix: "/usr", npm_config_quant: "true" };
  // The test runner's script starts blogqa as a child: npm read the runner's command line, not blogqa's.
  assert.equal(
    npmOptionsHint(["cost", "--bogus"], known, {
      ...npm,
      npm_lifecycle_event: "test:integration",
      npm_lifecycle_script: "tsx scripts/test.ts integration",
    }),
    undefined,
  );
  const own = { ...npm, npm_lifecycle_event: "blogqa", npm_lifecycle_script: "node bin/blogqa.cjs" };
  assert.equal(
    npmOptionsHint(["cost", "q8_0"], known, own),
    "npm run kept --quant for itself (options before `--` are npm's); put blogqa's options after `--`: " +
      "npm run blogqa -- cost --quant q8_0",
    "the prefix npm set itself is left out",
  );
  assert.match(
    npmOptionsHint(["cost"], known, { ...own, npm_config_prefix: "4" }) ?? "",
    /^npm run kept --prefix, --quant for itself/,
  );
});
