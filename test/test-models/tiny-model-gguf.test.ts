// The GGUF writer, read back by node-llama-cpp's own parser; and the float16 rounding the F16 tensors depend on.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { GGUF_ALIGNMENT, writeGguf, type GgufTensor } from "../../src/test-models/gguf/gguf-writer.ts";
import { randomTensorData, toFloat16Bits } from "../../src/test-models/random.ts";

const bytesOf = (array: Float32Array | Uint16Array): Uint8Array =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

test("a written GGUF reads back with every metadata type, aligned tensors and their exact bytes", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gguf-writer-"));
  try {
    const f32 = Float32Array.from([1, -2.5, 3, 0.125, 7, 8]); // 24 bytes: the next tensor needs padding
    const f16 = Uint16Array.from([0x3c00, 0xc000, 0x3800, 0x0001]);
    const tensors: GgufTensor[] = [
      {
        name: "a.weight",
        dims: [3, 2],
        type: "F32",
        data: () => [bytesOf(f32.subarray(0, 4)), bytesOf(f32.subarray(4))],
      },
      { name: "b.weight", dims: [4], type: "F16", data: () => [bytesOf(f16)] },
    ];
    const file = path.join(dir, "t.gguf");
    const written = writeGguf(
      file,
      [
        ["general.architecture", { kind: "string", value: "llama" }],
        ["t.u32", { kind: "uint32", value: 4_000_000_000 }],
        ["t.i32", { kind: "int32", value: -7 }],
        ["t.f32", { kind: "float32", value: 0.5 }],
        ["t.bool", { kind: "bool", value: true }],
        ["t.utf8", { kind: "string", value: "é <|im_start|>" }],
        ["t.strings", { kind: "string[]", value: ["x", "", "ĠĠ"] }],
        ["t.ints", { kind: "int32[]", value: Int32Array.from([1, -1, 5]) }],
        ["t.floats", { kind: "float32[]", value: [0.25, -1] }],
      ],
      tensors,
    );
    const buffer = fs.readFileSync(file);
    assert.equal(buffer.length, written);

    const info = await readGgufFileInfo(file, { logWarnings: false });
    assert.equal(info.version, 3);
    const t = (info.metadata as unknown as { t: Record<string, unknown> }).t;
    assert.deepEqual(t, {
      u32: 4_000_000_000,
      i32: -7,
      f32: 0.5,
      bool: true,
      utf8: "é <|im_start|>",
      strings: ["x", "", "ĠĠ"],
      ints: [1, -1, 5],
      floats: [0.25, -1],
    });

    const [a, b] = info.tensorInfo ?? [];
    assert.deepEqual(a?.dimensions.map(Number), [3, 2]);
    assert.deepEqual(b?.dimensions.map(Number), [4]);
    assert.equal(Number(a?.offset), 0);
    assert.equal(Number(b?.offset), 32); // 24 bytes rounded up to the alignment
    assert.equal(Number(info.infoEndOffset) % GGUF_ALIGNMENT, 0);
    const at = (offset: number | bigint | undefined, n: number): Buffer =>
      buffer.subarray(Number(offset), Number(offset) + n);
    assert.deepEqual(at(a?.fileOffset, 24), Buffer.from(bytesOf(f32)));
    assert.deepEqual(at(b?.fileOffset, 8), Buffer.from(bytesOf(f16)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a tensor whose data is the wrong length is an error, not a corrupt file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gguf-writer-"));
  try {
    const short: GgufTensor = { name: "short", dims: [4], type: "F32", data: () => [new Uint8Array(12)] };
    assert.throws(() => writeGguf(path.join(dir, "bad.gguf"), [], [short]), /short: wrote 12 bytes, expected 16/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("toFloat16Bits rounds to nearest even, with subnormals, overflow and NaN", () => {
  const cases: [number, number][] = [
    [0, 0x0000],
    [-0, 0x8000],
    [1, 0x3c00],
    [-2, 0xc000],
    [0.1, 0x2e66],
    [65504, 0x7bff],
    [65520, 0x7c00], // halfway to the next (missing) value rounds up to infinity
    [2 ** -24, 0x0001],
    [2 ** -25, 0x0000],
    [3 * 2 ** -25, 0x0002],
    [2 ** -14, 0x0400],
    [1 + 2 ** -11, 0x3c00],
    [1 + 3 * 2 ** -11, 0x3c02], // ties go to the even mantissa
    [Infinity, 0x7c00],
    [-Infinity, 0xfc00],
  ];
  for (const [value, bits] of cases) assert.equal(toFloat16Bits(value), bits, `toFloat16Bits(${value})`);
  assert.equal(toFloat16Bits(NaN) & 0x7c00, 0x7c00);
  assert.notEqual(toFloat16Bits(NaN) & 0x03ff, 0);
});

test("random tensor data is reproducible, in range, and differs between streams", () => {
  const collect = (seed: string): Float32Array => {
    const parts = [...randomTensorData(seed, 1001, "F32", 0, 0.5)].map((c) => new Float32Array(c.slice().buffer));
    return Float32Array.from(parts.flatMap((p) => [...p]));
  };
  const a = collect("1/x.weight");
  assert.equal(a.length, 1001);
  assert.deepEqual(a, collect("1/x.weight"));
  assert.notDeepEqual(a, collect("2/x.weight"));
  const limit = 0.5 * Math.sqrt(3);
  assert.ok(a.every((v) => Math.abs(v) < limit));
  const mean = a.reduce((s, v) => s + v, 0) / a.length;
  const std = Math.sqrt(a.reduce((s, v) => s + v * v, 0) / a.length);
  assert.ok(Math.abs(mean) < 0.1 && Math.abs(std - 0.5) < 0.05, `mean ${mean}, std ${std}`);
});
