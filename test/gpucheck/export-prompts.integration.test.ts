// export-prompts writes, for a tiny run, exactly the prompts and token caps the completions-mode server runtime sends.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { exportPrompts } from "../../src/commands/export-prompts.ts";
import { loadCorpus } from "../../src/corpus/index.ts";
import { DEFAULT_WORDING, parseWordings, runDesign, STUDY_DESIGNS } from "../../src/designs/index.ts";
import { withMaxTokens } from "../../src/runs/sampling.ts";
import { loadModel, openServerModel } from "../../src/llm/index.ts";
import { readRunLog } from "../../src/report/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { modelDialect } from "../../src/toolcalls/index.ts";
import { startFakeServer } from "../helpers/fake-openai-server.ts";
import { tempFolders } from "../helpers/temp-folders.ts";
import { testCacheDir } from "../helpers/tiny-model.ts";
import { FIXTURE_CONTENT, tinyRun } from "../helpers/tiny-run.ts";

const temp = tempFolders("blogqa-export-prompts");
const MAX_NEW_TOKENS = 40;

test("the exported prompts are the requests a completions-mode server gets when the same runs are made on it", async () => {
  const { dir, model } = await tinyRun({
    designs: STUDY_DESIGNS,
    questions: 2,
    parallel: 1,
    maxNewTokens: MAX_NEW_TOKENS,
  });
  const exported = await exportPrompts({ run: dir, cacheDir: testCacheDir });
  const { records } = readRunLog(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  const calls = records.flatMap((r) => r.transcript.calls);
  assert.equal(exported.length, calls.length);
  assert.deepEqual(
    exported.map((p) => [p.design, p.question_id, p.call]),
    records.flatMap((r) => r.transcript.calls.map((_, i) => [r.design, r.question_id, i + 1])),
  );
  assert.ok(exported.every((p) => p.model === model && p.max_tokens === MAX_NEW_TOKENS));
  // The forced design's first prompt ends with the prefix the reply continues; an agent's carries the tool schemas.
  const forced = exported.find((p) => p.design === "agent-forced" && p.call === 1)!;
  assert.ok(forced.prompt.endsWith("<|im_start|>assistant\n<tool_call>\n"));
  assert.ok(exported.find((p) => p.design === "agent")!.prompt.includes("<tools>"));
  assert.ok(!exported.find((p) => p.design === "workflow")!.prompt.includes("<tools>"));

  // The same runs again, on the server runtime: a fake server answers each call with the reply the run logged for
  // it, so every design sends the same conversation again, and the server records what it was sent.
  const logged = calls.map((c) => c.reply.slice((c.prefix ?? "").length));
  const server = await startFakeServer((call) => ({
    json: {
      choices: [{ index: 0, text: logged[call.n - 1], finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 0 } },
    },
  }));
  try {
    const local = await loadModel(model, { cacheDir: testCacheDir, gpu: false, vocabOnly: true });
    const templateFile = path.join(temp("template"), "template.jinja");
    fs.writeFileSync(templateFile, local.template.source);
    await local.dispose();
    const served = await openServerModel({
      url: server.url,
      model: "tiny",
      mode: "completions",
      timeoutSeconds: 30,
      retries: 0,
      chatTemplate: templateFile,
      repetitionPenalty: "none",
      reuseCache: false,
      cacheDir: testCacheDir,
    });
    const [runtime] = await served.openRuntimes(1, { reuseCache: false });
    const corpus = await loadCorpus(FIXTURE_CONTENT);
    const index = await openIndex(corpus, {
      retriever: "bm25",
      embeddingModel: "",
      dtype: "fp32",
      cacheDir: testCacheDir,
    });
    const dialect = modelDialect(served, "auto").dialect;
    for (const r of records)
      await runDesign(r.design, {
        question: r.question,
        runtime: withMaxTokens(runtime!, MAX_NEW_TOKENS),
        index,
        dialect,
      });
    assert.deepEqual(
      server.calls.map((c) => ({ prompt: c.body.prompt, max_tokens: c.body.max_tokens })),
      exported.map((p) => ({ prompt: p.prompt, max_tokens: p.max_tokens })),
    );
  } finally {
    await server.kill();
  }
});

test("a worded run's prompts carry its wording's tool descriptions, each line naming its wording", {
  timeout: 300_000,
}, async () => {
  const [worded] = parseWordings(
    [{ id: "terse", tool_descriptions: { search_posts: "Look the blog up (terse wording)." } }],
    "wordings.json",
  );
  const { dir } = await tinyRun({
    designs: ["agent"],
    questions: 1,
    parallel: 1,
    maxNewTokens: 8,
    wordings: [DEFAULT_WORDING, worded!],
  });
  const exported = await exportPrompts({ run: dir, cacheDir: testCacheDir });
  fs.rmSync(dir, { recursive: true, force: true });
  const ofWording = (id: string | undefined) => exported.filter((p) => p.wording === id).map((p) => p.prompt);
  assert.ok(ofWording("terse").length > 0 && ofWording(undefined).length > 0);
  assert.ok(ofWording("terse").every((prompt) => prompt.includes("Look the blog up (terse wording).")));
  assert.ok(ofWording(undefined).every((prompt) => !prompt.includes("terse wording")));
  const defaultDescription = DEFAULT_WORDING.tool_descriptions.search_posts;
  assert.ok(ofWording(undefined).every((prompt) => prompt.includes(JSON.stringify(defaultDescription))));
});
