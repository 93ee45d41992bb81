// export-prompts on a run made on a server: the server it asks is the one the manifest records, or --server's, and a
// server that does not answer is one line saying where its URL came from and how to give another.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { exportPrompts } from "../../src/commands/export-prompts.ts";
import { UserError } from "../../src/common/index.ts";
import { loadCorpus } from "../../src/corpus/index.ts";
import { openServerModel } from "../../src/llm/index.ts";
import { newManifest, readManifest, writeManifestFile } from "../../src/runs/manifest.ts";
import { defaultSettings } from "../../src/runs/settings.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { startFakeServer } from "../helpers/fake-openai-server.ts";
import { FIXTURE_CONTENT, FIXTURE_QUESTIONS } from "../helpers/tiny-run.ts";

// Only a generation config would be cached, and these runs decode with no penalty: none is read.
const testCacheDir = mkdtempSync(path.join(os.tmpdir(), "blogqa-export-server-cache-"));

/**
 * A folder as `run --server URL --model tiny` leaves it: one workflow run, and a manifest recording the server and
 * the model as the server described it. The server is gone once this returns, so the URL names a closed port.
 */
async function servedRun(): Promise<{ dir: string; url: string }> {
  const server = await startFakeServer();
  const settings = defaultSettings({ retriever: "bm25", gpu: false, server: server.url, repetitionPenalty: "none" });
  let info: Awaited<ReturnType<typeof openServerModel>>["info"];
  try {
    const served = await openServerModel({
      url: server.url,
      model: "tiny",
      mode: "completions",
      timeoutSeconds: 5,
      retries: 0,
      repetitionPenalty: "none",
      reuseCache: true,
      cacheDir: testCacheDir,
    });
    info = served.info;
    await served.dispose();
  } finally {
    await server.kill();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-export-server-"));
  const manifest = newManifest(
    {
      settings,
      selection: { models: ["tiny"], designs: ["workflow"], limit: 1 },
      questionsFile: FIXTURE_QUESTIONS,
      corpus: await loadCorpus(FIXTURE_CONTENT),
      questionCount: 1,
      embedding: undefined,
    },
    new Date(),
  );
  writeManifestFile(dir, { ...manifest, models: [{ ...info, files: [] }] });
  const record = makeRecord({ model: "tiny", design: "workflow", question_id: "f1" });
  writeFileSync(path.join(dir, "answers.jsonl"), `${JSON.stringify(record)}\n`);
  return { dir, url: server.url };
}

test("a run's server that is down: the error says the URL was read from manifest.json, and --server gives another", async () => {
  const { dir, url } = await servedRun();
  await assert.rejects(exportPrompts({ run: dir, cacheDir: testCacheDir }), (e: Error) => {
    assert.ok(e instanceof UserError);
    assert.equal(
      e.message,
      `No OpenAI-compatible server answered at ${url}/models: that URL was read from ` +
        `${path.join(dir, "manifest.json")} (settings.server, where the run's server was): start the server there, ` +
        "or give the address it has now with --server URL",
    );
    return true;
  });
  const elsewhere = await startFakeServer();
  try {
    const prompts = await exportPrompts({ run: dir, server: elsewhere.url, cacheDir: testCacheDir });
    assert.equal(prompts.length, 1);
    // Rendered with the template the stand-in reports, the one the run's server reported too.
    assert.equal(
      prompts[0]!.prompt,
      "<|im_start|>system\nYou answer questions about a technical blog.<|im_end|>\n" +
        "<|im_start|>user\nQuestion f1?<|im_end|>\n<|im_start|>assistant\n",
    );
  } finally {
    await elsewhere.kill();
  }
  await assert.rejects(exportPrompts({ run: dir, server: url, cacheDir: testCacheDir }), {
    message:
      `No OpenAI-compatible server answered at ${url}/models: check --server (a base URL such as ` +
      "http://127.0.0.1:8080/v1), that the server is running",
  });
});

test("--server on a run made in process is refused: its prompts come from its model files", async () => {
  const { dir } = await servedRun();
  const manifestFile = path.join(dir, "manifest.json");
  const manifest = readManifest(dir)!;
  writeManifestFile(dir, { ...manifest, settings: { ...manifest.settings, server: null } });
  await assert.rejects(exportPrompts({ run: dir, server: "http://127.0.0.1:9/v1", cacheDir: testCacheDir }), {
    message:
      `--server: ${manifestFile} records no server: the run was made in process, and its prompts are rendered ` +
      "with its model files here; leave out --server",
  });
});
