// The embedder's pure parts: truncation as Hugging Face's tokenizers do it, length-sorted batches, padding.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lengthSortedBatches, MAX_WORD_PIECES, padBatch, truncateTokenIds } from "../../src/search/embed-batches.ts";

test("truncation keeps the closing [SEP] and cuts the text, as sentence-transformers' tokenizer does", () => {
  const CLS = 101,
    SEP = 102;
  assert.deepEqual(truncateTokenIds([CLS, 1, 2, 3, 4, SEP], 4, true), [CLS, 1, 2, SEP]);
  assert.deepEqual(truncateTokenIds([CLS, 1, 2, SEP], 4, true), [CLS, 1, 2, SEP], "at the limit: unchanged");
  assert.deepEqual(truncateTokenIds([1, 2, 3, 4, 5], 3, false), [1, 2, 3], "no closing special token: a plain cut");
  const long = [CLS, ...Array.from({ length: 400 }, (_, i) => i + 1000), SEP];
  const cut = truncateTokenIds(long, MAX_WORD_PIECES, true);
  assert.equal(cut.length, 256);
  assert.equal(cut[254], 1253, "254 text pieces survive");
  assert.equal(cut[255], SEP);
});

test("batches go longest first, ties in input order, at most batchSize each", () => {
  assert.deepEqual(lengthSortedBatches([5, 1, 9], 2), [[2, 0], [1]]);
  assert.deepEqual(lengthSortedBatches([3, 3, 3], 2), [[0, 1], [2]]);
  assert.deepEqual(lengthSortedBatches([], 32), []);
});

test("padding fills with the pad id and masks it out", () => {
  const batch = padBatch([[7, 8, 9], [5]], 0);
  assert.equal(batch.rows, 2);
  assert.equal(batch.columns, 3);
  assert.deepEqual([...batch.inputIds], [7n, 8n, 9n, 5n, 0n, 0n]);
  assert.deepEqual([...batch.attentionMask], [1n, 1n, 1n, 1n, 0n, 0n]);
  assert.deepEqual([...batch.tokenTypeIds], [0n, 0n, 0n, 0n, 0n, 0n]);
});
