// The first run from an empty cache behind a firewall: with HF_ENDPOINT naming a hub that answers as the real one
// (302s to signed CDN URLs that expire, 307s for small files, a 429), every file the experiment needs (both models'
// GGUFs, the 3B's in two split parts, their original repositories' generation_config.json and tokenizer_config.json,
// MiniLM) comes from it, the expired URLs are resolved afresh, and a second run asks for nothing at all.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_MODELS } from "../../src/llm/model-files.ts";
import { runCliAsync, repoRoot } from "../helpers/run-cli.ts";
import { startStandInHub, type HubFile } from "../helpers/stand-in-hub.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";
import { tinyEmbedderPath } from "../helpers/tiny-embedder.ts";
import { splitGguf } from "../helpers/split-gguf.ts";

const QUANT = "f16";

async function hubFiles(): Promise<HubFile[]> {
  const gguf = fs.readFileSync(await tinyModelPath());
  // The 3B's f16 is two files on the hub: the tiny model split as gguf-split splits, under the two official names.
  const parts = (names: readonly string[]) => (names.length === 1 ? [gguf] : splitGguf(gguf));
  const config = (penalty: number) =>
    Buffer.from(
      `${JSON.stringify({ bos_token_id: 151643, do_sample: true, eos_token_id: [151645, 151643], repetition_penalty: penalty, temperature: 0.7, top_k: 20, top_p: 0.8 }, null, 2)}\n`,
    );
  const embedder = tinyEmbedderPath();
  const embedderFiles = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];
  return [
    ...DEFAULT_MODELS.flatMap((m) => [
      ...parts(m.files[QUANT]).map((bytes, i) => ({ repo: m.repo, revision: "main", file: m.files[QUANT][i]!, bytes })),
      {
        repo: m.original.repo,
        revision: m.original.revision ?? "main",
        file: "generation_config.json",
        bytes: config(m.name === "qwen2.5-1.5b" ? 1.1 : 1.05),
      },
      {
        repo: m.original.repo,
        revision: m.original.revision ?? "main",
        file: "tokenizer_config.json",
        bytes: fs.readFileSync(path.join(embedder, "tokenizer_config.json")),
      },
    ]),
    ...embedderFiles.map((file) => ({
      repo: "Xenova/all-MiniLM-L6-v2",
      revision: "main",
      file,
      bytes: fs.readFileSync(path.join(embedder, file)),
    })),
  ];
}

test("experiment from an empty cache downloads everything from HF_ENDPOINT through expiring URLs, then asks nothing", async () => {
  const files = await hubFiles();
  const first = DEFAULT_MODELS[0]!;
  // Three requests a signed URL: the 45 MB tiny model's nine 5 MB chunks need the hub again mid-download.
  const hub = await startStandInHub(files, {
    signedUrlUses: 3,
    rateLimit: { count: 1, seconds: 1, file: first.files[QUANT][0] },
  });
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-first-run-"));
  const args = [
    "experiment",
    "--quant",
    QUANT,
    "--limit",
    "2",
    "--designs",
    "workflow",
    "--content",
    path.join(repoRoot, "test/fixtures/blog/posts"),
    "--questions",
    path.join(repoRoot, "test/fixtures/blog/questions.jsonl"),
    "--cache-dir",
    cacheDir,
    "--out",
    path.join(cacheDir, "results"),
    "--threads",
    "1",
  ];
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN: "", HF_TOKEN_PATH: path.join(cacheDir, "no-token") };
  try {
    const run = await runCliAsync(args, { env });
    assert.equal(run.status, 0, run.stderr);
    const gets = hub.requests.filter((r) => r.startsWith("GET "));
    const resolves = (file: string) => hub.requests.filter((r) => r.endsWith(`/resolve/main/${file}`)).length;
    // The expired URLs were resolved afresh, each in one line, and the download went on.
    assert.ok(resolves(first.files[QUANT][0]!) >= 2, hub.requests.join("\n"));
    assert.ok(hub.cdnRequests.some((r) => r.status === 403));
    assert.match(
      run.stderr,
      /HTTP 403, as when a signed URL has expired\) at [\d.]+ MB of [\d.]+ MB; asking the hub for a fresh URL/,
    );
    assert.match(run.stderr, /HTTP 429 .*waiting 1 s, then asking the hub/);
    assert.match(run.stderr, /qwen2\.5-1\.5b-instruct-fp16\.gguf: [\d.]+ MB, sha256 checked against the hub's/);
    // No query string (a signed URL's signature) anywhere, and no progress line twice.
    assert.doesNotMatch(run.stderr, /Signature=|Expires=/);
    const progress = run.stderr.split("\n").filter((l) => l.includes("downloading") && l.includes("%"));
    assert.equal(new Set(progress).size, progress.length, progress.join("\n"));
    const pinned = `/${first.original.repo}/resolve/${first.original.revision}/generation_config.json`;
    assert.ok(gets.includes(`GET ${pinned}`), hub.requests.join("\n"));
    // Both defaults pin their original repository's commit: that commit is fetched and recorded, whatever the hub
    // would name for main (an unpinned request recording the hub's commit is tested in generation-config.test.ts).
    for (const model of DEFAULT_MODELS) {
      const source = JSON.parse(
        fs.readFileSync(
          path.join(cacheDir, "models", model.original.repo.replace("/", "_"), "generation_config.source.json"),
          "utf8",
        ),
      ) as { revision: string };
      assert.ok(model.original.revision !== undefined, `${model.name} pins a revision`);
      assert.equal(source.revision, model.original.revision, `${model.name}: the pinned commit is recorded`);
    }
    for (const f of files.filter((f) => f.file.endsWith(".gguf"))) {
      const local = path.join(cacheDir, "models", `hf_Qwen_${f.file}`);
      assert.ok(fs.readFileSync(local).equals(f.bytes), `${local} holds what was served`);
    }
    const lines = fs
      .readFileSync(path.join(cacheDir, "results", "answers.jsonl"), "utf8")
      .trim()
      .split("\n");
    assert.equal(lines.length, 4, "2 questions x 1 design x 2 models");
    assert.deepEqual(
      files.filter((f) => f.file.endsWith(".gguf")).map((f) => f.file),
      [
        "qwen2.5-1.5b-instruct-fp16.gguf",
        "qwen2.5-3b-instruct-fp16-00001-of-00002.gguf",
        "qwen2.5-3b-instruct-fp16-00002-of-00002.gguf",
      ],
    );

    const asked = hub.requests.length;
    const again = await runCliAsync(args, { env });
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(hub.requests.slice(asked), [], "a second run makes no request at all");
  } finally {
    await hub.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
});
