// Metadata entries the generated models all write the same way: typed values, a decoder's shape under its
// architecture's name, and a byte-level BPE vocabulary.
import type { GgufValue } from "./gguf-writer.ts";

export const u32 = (value: number): GgufValue => ({ kind: "uint32", value });
export const f32 = (value: number): GgufValue => ({ kind: "float32", value });
export const str = (value: string): GgufValue => ({ kind: "string", value });

/** The sizes llama.cpp reads for any decoder, under `arch.` (qwen2, qwen3, llama), in the order the files hold them. */
export function shapeMetadata(
  arch: string,
  shape: {
    readonly contextLength: number;
    readonly hidden: number;
    readonly layers: number;
    readonly ffn: number;
    readonly heads: number;
    readonly kvHeads: number;
  },
): [string, GgufValue][] {
  return [
    [`${arch}.context_length`, u32(shape.contextLength)],
    [`${arch}.embedding_length`, u32(shape.hidden)],
    [`${arch}.block_count`, u32(shape.layers)],
    [`${arch}.feed_forward_length`, u32(shape.ffn)],
    [`${arch}.attention.head_count`, u32(shape.heads)],
    [`${arch}.attention.head_count_kv`, u32(shape.kvHeads)],
  ];
}

/** A byte-level BPE vocabulary's tokens, their types and its merges. */
export function vocabMetadata(vocab: {
  readonly tokens: readonly string[];
  readonly tokenTypes: ArrayLike<number>;
  readonly merges: readonly string[];
}): [string, GgufValue][] {
  return [
    ["tokenizer.ggml.tokens", { kind: "string[]", value: vocab.tokens }],
    ["tokenizer.ggml.token_type", { kind: "int32[]", value: vocab.tokenTypes }],
    ["tokenizer.ggml.merges", { kind: "string[]", value: vocab.merges }],
  ];
}

/**
 * A Qwen-vocabulary model's tokenizer (Qwen2.5's and Qwen3's share it): byte-level BPE with Qwen2's pre-tokenizer, its
 * special ids, no BOS added (the template writes none), and the chat template.
 */
export function qwenTokenizerMetadata(
  vocab: Parameters<typeof vocabMetadata>[0],
  ids: { readonly bos: number; readonly eos: number; readonly padding: number },
  chatTemplate: string,
): [string, GgufValue][] {
  return [
    ["tokenizer.ggml.model", str("gpt2")],
    ["tokenizer.ggml.pre", str("qwen2")],
    ...vocabMetadata(vocab),
    ["tokenizer.ggml.bos_token_id", u32(ids.bos)],
    ["tokenizer.ggml.eos_token_id", u32(ids.eos)],
    ["tokenizer.ggml.padding_token_id", u32(ids.padding)],
    ["tokenizer.ggml.add_bos_token", { kind: "bool", value: false }],
    ["tokenizer.chat_template", str(chatTemplate)],
  ];
}
