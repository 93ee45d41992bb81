// The note that a context is longer than the model was trained on, said once per model in place of llama.cpp's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pastTrainingNote } from "../../src/llm/load-model.ts";

test("a context past the trained length is named with both lengths", () => {
  const note = pastTrainingNote("qwen2.5-3b-instruct-q8_0.gguf", 49152, 32768);
  assert.match(note ?? "", /qwen2\.5-3b-instruct-q8_0\.gguf: a context of 49152 tokens per sequence, past the 32768/);
  assert.match(note ?? "", /a prompt longer than 32768 tokens runs past its training/);
});

test("a context within training, or a model stating no length, gets no note", () => {
  assert.equal(pastTrainingNote("m.gguf", 32768, 32768), undefined);
  assert.equal(pastTrainingNote("m.gguf", 4096, 131072), undefined);
  assert.equal(pastTrainingNote("m.gguf", 49152, 0), undefined);
});
