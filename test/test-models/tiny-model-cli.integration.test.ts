// make-tiny-model from the command line: the path alone on stdout, progress and reuse on stderr, bad input as a UserError.
import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../helpers/run-cli.ts";

test("make-tiny-model writes into the cache folder by shape and seed, prints only the path, then reuses the file", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "tiny-cli-"));
  try {
    const expected = path.join(cache, "tiny", "tiny-seed5.gguf");
    const first = runCli(["make-tiny-model", "--seed", "5"], { env: { BLOGQA_CACHE: cache } });
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, `${expected}\n`);
    assert.match(first.stderr, /wrote 45\.0 MB/);
    assert.equal(fs.statSync(expected).size, 44978208);
    const second = runCli(["make-tiny-model", "--seed", "5"], { env: { BLOGQA_CACHE: cache } });
    assert.equal(second.stdout, `${expected}\n`);
    assert.match(second.stderr, /reusing up-to-date/);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

test("a bad seed is a one-line error and writes nothing", () => {
  const out = path.join(os.tmpdir(), `tiny-cli-bad-${process.pid}.gguf`);
  const result = runCli(["make-tiny-model", "--seed", "-3", "--out", out]);
  assert.equal(result.status, 2);
  assert.equal(result.stderr, "blogqa: --seed must be a whole number from 0 to 4294967295, got -3\n");
  assert.equal(fs.existsSync(out), false);
});

test("make-tiny-model --family qwen3 and llama3 write the files smoke --family runs; qwen2.5's options are refused", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "tiny-cli-"));
  try {
    for (const [family, name] of [
      ["qwen3", "tiny-qwen3-seed1.gguf"],
      ["llama3", "tiny-llama-seed1.gguf"],
    ] as const) {
      const made = runCli(["make-tiny-model", "--family", family], { env: { BLOGQA_CACHE: cache } });
      assert.equal(made.status, 0, made.stderr);
      assert.equal(made.stdout, `${path.join(cache, "tiny", name)}\n`);
      assert.match(made.stderr, /^make-tiny-model: wrote /);
      const again = runCli(["make-tiny-model", "--family", family], { env: { BLOGQA_CACHE: cache } });
      assert.match(again.stderr, /^make-tiny-model: reusing up-to-date /);
    }
    const refused = runCli(["make-tiny-model", "--family", "llama3", "--dtype", "f32", "--weights", "zero-blocks"], {
      env: { BLOGQA_CACHE: cache },
    });
    assert.equal(refused.status, 2);
    assert.equal(
      refused.stderr,
      "blogqa: make-tiny-model --family llama3 takes no --dtype, --weights (qwen2.5 does)\n",
    );
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

test("make-tiny-model --weights trained writes the committed model byte-identically, and takes no --shape", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "tiny-cli-"));
  try {
    const sha = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
    const first = runCli(["make-tiny-model", "--weights", "trained"], { env: { BLOGQA_CACHE: cache } });
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, `${path.join(cache, "tiny", "trained-agent.gguf")}\n`);
    const other = path.join(cache, "again.gguf");
    const second = runCli(["make-tiny-model", "--weights", "trained", "--out", other, "--force"], {
      env: { BLOGQA_CACHE: cache },
    });
    assert.equal(second.status, 0, second.stderr);
    assert.equal(sha(other), sha(first.stdout.trim()));
    const refused = runCli(["make-tiny-model", "--weights", "trained", "--shape", "qwen2.5-0.5b"], {
      env: { BLOGQA_CACHE: cache },
    });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /--weights trained takes no --shape, --seed or --dtype/);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
