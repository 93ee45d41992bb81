// A model that cannot be used is one line saying why: a GGUF cut short (its size beside what its header
// describes), a context too large to allocate.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkModel, loadModel } from "../../src/llm/index.ts";
import { UserError } from "../../src/common/errors.ts";
import { TOO_LARGE_CONTEXT, tinyModelPath } from "../helpers/tiny-model.ts";

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-load-errors-"));

/** The tiny model's first `bytes` bytes, as a download cut short leaves them. */
async function truncated(bytes: number): Promise<string> {
  const file = path.join(cacheDir, `cut-${bytes}.gguf`);
  const whole = fs.readFileSync(await tinyModelPath());
  fs.writeFileSync(file, whole.subarray(0, bytes));
  return file;
}

test("a GGUF cut short, in its tensors or in its metadata, is named truncated with its size, not 'no chat template'", async () => {
  const whole = fs.statSync(await tinyModelPath()).size;
  for (const bytes of [whole - 1, 20_000_000, 1000]) {
    const file = await truncated(bytes);
    const expected = (e: unknown) =>
      e instanceof UserError &&
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is truncated or not a GGUF file: it is ${bytes} bytes, ` +
          "and its header describes at least \\d+; download it again or check the --model path$",
      ).test(e.message);
    await assert.rejects(checkModel(file, { cacheDir }), expected, `checkModel, ${bytes} bytes`);
    await assert.rejects(
      loadModel(file, { cacheDir, gpu: false, repetitionPenalty: "none" }),
      expected,
      `loadModel, ${bytes} bytes`,
    );
  }
  await checkModel(await tinyModelPath(), { cacheDir });
});

test("a context too large for the memory is one line naming the largest --context-size that fits", async () => {
  const model = await loadModel(await tinyModelPath(), {
    cacheDir,
    gpu: false,
    repetitionPenalty: "none",
    contextSize: TOO_LARGE_CONTEXT,
  });
  try {
    await assert.rejects(
      model.openRuntimes(1, { reuseCache: true }),
      (e: unknown) =>
        e instanceof UserError &&
        new RegExp(
          `^model tiny-seed1\\.gguf: --context-size ${TOO_LARGE_CONTEXT} does not fit the [\\d.]+ [GM]iB of RAM free beside its weights; the largest that fits is --context-size \\d+ \\(a prompt longer than that fails and is counted apart\\), or --quant q8_0 \\/ --quant q4_k_m takes smaller weights\\. Nothing logged is lost: run again with one of these to go on$`,
        ).test(e.message),
    );
  } finally {
    await model.dispose();
  }
  await assert.rejects(
    loadModel(await tinyModelPath(), { cacheDir, gpu: false, repetitionPenalty: "none", contextSize: 0.5 }),
    (e: unknown) =>
      e instanceof UserError && e.message === "--context-size 0.5: give a whole number of tokens, 1 or more",
  );
});
