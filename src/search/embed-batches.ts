// Pure helpers of the embedder: truncation to the model's word-piece limit, length-sorted batches, padding.

/** sentence-transformers' max_seq_length for all-MiniLM-L6-v2 (its tokenizer_config says 512; sentence-transformers cuts at 256). */
export const MAX_WORD_PIECES = 256;

/** sentence-transformers' default encode batch size. */
export const DEFAULT_BATCH_SIZE = 32;

/**
 * Cuts a tokenized text (special tokens included) to `maxLength` pieces the way Hugging Face's tokenizers do:
 * the text is cut, and the closing special token stays. [CLS] a b c d [SEP] with maxLength 4 gives [CLS] a b [SEP].
 * Subtle: transformers.js's own `truncation` drops the [SEP] instead (it slices the ids), so we do not use it.
 * `closing` tells whether the last id is a special token the template appends (BERT's [SEP]); if not, a plain cut.
 */
export function truncateTokenIds(ids: readonly number[], maxLength: number, closing: boolean): number[] {
  if (ids.length <= maxLength) return [...ids];
  if (!closing) return ids.slice(0, maxLength);
  return [...ids.slice(0, maxLength - 1), ids[ids.length - 1]!];
}

/**
 * Groups text indices into batches of at most `batchSize`, longest first (as sentence-transformers does),
 * so that each batch pads to lengths close to its own: [5, 1, 9] with batch size 2 gives [[2, 0], [1]].
 * Ties keep input order, so the batches are the same on every run.
 */
export function lengthSortedBatches(lengths: readonly number[], batchSize: number): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b);
  const batches: number[][] = [];
  for (let start = 0; start < order.length; start += batchSize) batches.push(order.slice(start, start + batchSize));
  return batches;
}

/** A padded batch as flat row-major arrays, [rows x columns], ready for int64 tensors. */
export interface PaddedBatch {
  readonly rows: number;
  readonly columns: number;
  readonly inputIds: BigInt64Array;
  readonly attentionMask: BigInt64Array;
  /** All zeros: one segment per text. */
  readonly tokenTypeIds: BigInt64Array;
}

/** Right-pads every sequence to the longest with `padId`, masking the padding out (attention 0). */
export function padBatch(sequences: readonly (readonly number[])[], padId: number): PaddedBatch {
  const rows = sequences.length;
  const columns = Math.max(0, ...sequences.map((s) => s.length));
  const inputIds = new BigInt64Array(rows * columns).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(rows * columns);
  sequences.forEach((sequence, row) => {
    sequence.forEach((id, column) => {
      inputIds[row * columns + column] = BigInt(id);
      attentionMask[row * columns + column] = 1n;
    });
  });
  return { rows, columns, inputIds, attentionMask, tokenTypeIds: new BigInt64Array(rows * columns) };
}
