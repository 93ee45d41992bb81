// The one settings record: defaults from the option definitions, the manifest's snake_case form and its inverse.
import { test } from "node:test";
import assert from "node:assert/strict";
import yargs from "yargs";
import {
  defaultSettings,
  settingFieldProblem,
  settingFields,
  settingsFromArgs,
  settingsFor,
  settingsFromFields,
  SETTING_OPTIONS,
  STUDY_MAX_NEW_TOKENS,
} from "../../src/runs/settings.ts";
import { studyRunOptions } from "../../src/commands/study.ts";
import { UserError } from "../../src/common/errors.ts";

const parse = async (args: string[]) => studyRunOptions(yargs().exitProcess(false).fail(false)).parseAsync(args);

test("defaults come from the option definitions: the study's 200 tokens, a context fitted to free memory", () => {
  const s = defaultSettings();
  assert.equal(s.maxNewTokens, STUDY_MAX_NEW_TOKENS);
  assert.equal(s.contextSize, "auto");
  assert.equal(s.threads, undefined);
  assert.equal(s.retriever, "hybrid");
  assert.deepEqual(Object.keys(s).length, Object.keys(SETTING_OPTIONS).length);
});

test("the command line gives the same record as the defaults, and each flag changes its one field", async () => {
  assert.deepEqual(settingsFromArgs(await parse([])), defaultSettings());
  const argv = await parse([
    "--max-new-tokens",
    "50",
    "--no-reuse-cache",
    "--threads",
    "3",
    "--retriever",
    "bm25",
    "--out",
    "x",
  ]);
  assert.deepEqual(
    settingsFromArgs(argv),
    defaultSettings({ maxNewTokens: 50, reuseCache: false, threads: 3, retriever: "bm25" }),
  );
});

test("the manifest's fields are snake_case, null for unset, and read back to the same record", () => {
  const s = defaultSettings({ threads: 2, chatTemplate: "t.jinja", parallel: 3 });
  const fields = settingFields(s);
  assert.equal(fields.max_new_tokens, 200);
  assert.equal(fields.chat_template, "t.jinja");
  assert.equal(fields.shared_context, false);
  assert.deepEqual(settingsFromFields(fields), s);
  assert.equal(
    settingFields(defaultSettings()).threads,
    null,
    "unset: the runtime chooses (the model entry records what it chose)",
  );
  assert.deepEqual(settingsFromFields(settingFields(defaultSettings())), defaultSettings());
});

test("with bm25 the embedding model is recorded as null (none is loaded) and reads back as the default", () => {
  const s = defaultSettings({ retriever: "bm25", embeddingModel: "some/other" });
  assert.equal(settingFields(s).embedding_model, null);
  assert.equal(settingsFromFields(settingFields(s)).embeddingModel, defaultSettings().embeddingModel);
});

test("--max-new-tokens, --parallel, --limit, --threads and --context-size must be positive integers", async () => {
  for (const [flag, value, expected] of [
    ["max-new-tokens", "0", "a whole number from 1 to 1048576"],
    ["max-new-tokens", "-5", "a whole number from 1 to 1048576"],
    ["parallel", "0", "a whole number from 1 to 256"],
    ["limit", "1.5", "a whole number from 1 to 2147483647"],
    ["threads", "0", "a whole number from 1 to 1024"],
    ["context-size", "-1", "auto or a whole number from 1 to 4294967295"],
  ]) {
    await assert.rejects(
      parse([`--${flag}`, value!]),
      (e: unknown) => e instanceof UserError && e.message.startsWith(`--${flag} must be ${expected}`),
      `${flag} ${value}`,
    );
  }
  await parse(["--max-new-tokens", "1"]);
});

test("every number setting is bounded to what the runtime takes, as a usage error (exit status 2)", async () => {
  for (const [flag, value] of [
    ["temperature", "Infinity"],
    ["temperature", "0"],
    ["temperature", "abc"],
    ["top-k", "4294967297"],
    ["top-k", "-1"],
    ["top-p", "1.5"],
    ["samples", "1000000000"],
    ["seed", "4294967296"],
    ["seed", "-1"],
    ["parallel", "100000"],
    ["threads", "1e9"],
    ["context-size", "1e12"],
  ]) {
    await assert.rejects(
      parse([`--${flag}`, value!]),
      (e: unknown) => e instanceof UserError && e.exitCode === 2 && e.message.startsWith(`--${flag} must be `),
      `${flag} ${value}`,
    );
  }
  const within = await parse(["--temperature", "0.7", "--top-k", "2147483647", "--top-p", "1", "--samples", "10000"]);
  assert.equal(within.temperature, 0.7); // parsed: every value at its bound is taken
});

test("--context-size takes auto or a number of tokens, and the manifest's field takes the same", async () => {
  assert.equal(settingsFromArgs(await parse(["--context-size", "4096"])).contextSize, 4096);
  assert.equal(settingsFromArgs(await parse(["--context-size", "auto"])).contextSize, "auto");
  await assert.rejects(
    parse(["--context-size", "big"]),
    /^.*--context-size must be auto or a whole number of tokens, got "big"$/,
  );
  assert.equal(settingFields(defaultSettings()).context_size, "auto");
  assert.equal(settingFieldProblem("context_size", "auto"), undefined);
  assert.equal(settingFieldProblem("context_size", 32768), undefined, "a manifest from before auto still reads");
  assert.equal(settingFieldProblem("context_size", "big"), "auto or a whole number from 1 to 4294967295 or null");
  assert.equal(settingFieldProblem("context_size", 0), "auto or a whole number from 1 to 4294967295 or null");
});

test("the manifest's field of a number setting is checked against the same range", () => {
  assert.equal(settingFieldProblem("max_new_tokens", 200), undefined);
  assert.equal(settingFieldProblem("max_new_tokens", 0), "a whole number from 1 to 1048576 or null");
  assert.equal(settingFieldProblem("threads", 2.5), "a whole number from 1 to 1024 or null");
  assert.equal(settingFieldProblem("temperature", 0), "a number above 0 and at most 100 or null");
  assert.equal(settingFieldProblem("threads", null), undefined);
  assert.equal(settingFieldProblem("threads", "4"), "a whole number from 1 to 1024 or null");
});

test("a server URL is recorded without the user and password it carries", () => {
  const s = defaultSettings({ server: "http://user:pw-secret@127.0.0.1:8080/v1" });
  assert.equal(settingFields(s).server, "http://127.0.0.1:8080/v1");
  assert.equal(
    settingFields(defaultSettings({ server: "http://127.0.0.1:8080/v1" })).server,
    "http://127.0.0.1:8080/v1",
  );
});

test("each reader gets the settings tagged for it, under their own names, those not set left out", () => {
  const settings = defaultSettings({ chatTemplate: "t.jinja", threads: undefined, topK: 5 });
  assert.deepEqual(settingsFor(settings, "local"), {
    gpu: true,
    contextSize: "auto",
    chatTemplate: "t.jinja",
    repetitionPenalty: "auto",
  });
  assert.deepEqual(settingsFor(settings, "server"), {
    reuseCache: true,
    chatTemplate: "t.jinja",
    repetitionPenalty: "auto",
  });
  assert.deepEqual(settingsFor(settings, "runner"), { parallel: 1, reuseCache: true, sharedContext: false });
  assert.deepEqual(settingsFor(settings, "recipe"), {
    maxNewTokens: STUDY_MAX_NEW_TOKENS,
    toolFormat: "auto",
    thinking: false,
    samples: 1,
    seed: 0,
    sampling: "auto",
    topK: 5,
    withhold: "none",
  });
});
