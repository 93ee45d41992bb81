// The trained agent model's committed weights as GGUF tensors: rows expanded in place, a damaged folder one line.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readTrainedWeights, trainedTensors } from "../../src/test-models/gguf/trained-tensors.ts";
import { UserError } from "../../src/common/index.ts";

/** A two-token, 2-wide "model": token_embd rows for tokens 3 and 1, one f32 norm. */
function writeFolder(dir: string, info: Record<string, unknown>, weights: Buffer): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "model.json"), JSON.stringify(info));
  fs.writeFileSync(path.join(dir, "weights.bin"), weights);
}

const INFO = {
  format: 1,
  architecture: "qwen2",
  shape: { hidden: 2, layers: 1, heads: 1, kv_heads: 1, ffn: 4, rope_theta: 10000, rms_eps: 1e-6 },
  vocab_rows: 5,
  used_tokens: [3, 1],
  tensors: [
    { name: "token_embd.weight", shape: [2, 2], dtype: "float16", offset: 0 },
    { name: "output_norm.weight", shape: [2], dtype: "float32", offset: 8 },
  ],
  training: {},
};

test("token_embd gets every vocabulary row: the used tokens' rows in place, the others zero", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trained-"));
  // f16 rows: token 3 = [1, 2], token 1 = [3, 4] (0x3c00 = 1.0, 0x4000 = 2.0, 0x4200 = 3.0, 0x4400 = 4.0)
  const embd = Buffer.from(Uint16Array.of(0x3c00, 0x4000, 0x4200, 0x4400).buffer);
  const norm = Buffer.from(Float32Array.of(1, 1).buffer);
  writeFolder(dir, INFO, Buffer.concat([embd, norm]));
  const tensors = trainedTensors(readTrainedWeights(dir));
  assert.deepEqual(
    tensors.map((t) => [t.name, t.dims, t.type]),
    [
      ["token_embd.weight", [2, 5], "F16"],
      ["output_norm.weight", [2], "F32"],
    ],
  );
  const bytes = Buffer.concat([...tensors[0]!.data()]);
  assert.deepEqual(
    [...new Uint16Array(bytes.buffer, bytes.byteOffset, 10)],
    [0, 0, 0x4200, 0x4400, 0, 0, 0x3c00, 0x4000, 0, 0],
  );
});

test("a weights file shorter than its tensor table, or a model.json of another format, is one line naming the folder", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trained-"));
  writeFolder(dir, INFO, Buffer.alloc(8));
  assert.throws(
    () => readTrainedWeights(dir),
    (e: unknown) =>
      e instanceof UserError && /output_norm\.weight runs past the end of the file \(8 bytes\)/.test(e.message),
  );
  writeFolder(dir, { ...INFO, format: 2 }, Buffer.alloc(16));
  assert.throws(
    () => readTrainedWeights(dir),
    (e: unknown) =>
      e instanceof UserError &&
      e.message.startsWith(`cannot read the trained model's weights in ${dir}:`) &&
      !e.message.includes("\n"),
  );
});
