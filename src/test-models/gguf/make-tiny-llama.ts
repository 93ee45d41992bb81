// ensureTinyLlamaModel: a `llama` GGUF with random weights, Llama 3.1's real vocabulary and merges and Llama 3.1
// Instruct's chat template, so the harness can be run offline on a second model family (the llama3 tool-call format).
import fs from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../common/index.ts";
import { f32, shapeMetadata, str, u32, vocabMetadata } from "./gguf-metadata.ts";
import type { GgufValue } from "./gguf-writer.ts";
import { ensureStampedGguf } from "./stamped-gguf.ts";
import { LLAMA3_SPECIAL_IDS, LLAMA3_VOCAB_ROWS, llama3TokenizerJsonPath, loadLlama3Vocab } from "./llama3-vocab.ts";
import { readBundledFile } from "./qwen25-template.ts";
import { SHAPES } from "./qwen2-shapes.ts";
import { qwen2Tensors } from "./qwen2-tensors.ts";

/** Bump whenever the bytes written for the same arguments change. */
export const TINY_LLAMA_GENERATOR_VERSION = 1;
export const LLAMA31_TEMPLATE_PATH = "models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja";

export interface TinyLlamaOptions {
  readonly out: string;
  readonly seed?: number; // default 1
  /** Where the template read from node-llama-cpp's llama.cpp bundle is cached; default: out's folder. */
  readonly cacheDir?: string;
}

/** The tiny shape of the Qwen model, as a `llama` model: the same tensors without Qwen2's attention biases. */
export function ensureTinyLlamaModel(options: TinyLlamaOptions): { readonly path: string; readonly reused: boolean } {
  const seed = options.seed ?? 1;
  const out = path.resolve(options.out);
  const template = readBundledFile(LLAMA31_TEMPLATE_PATH, options.cacheDir ?? path.dirname(out));
  const tokenizerJson = llama3TokenizerJsonPath();
  const stamp = {
    generator: TINY_LLAMA_GENERATOR_VERSION,
    seed,
    llamaCppCommit: template.commit,
    tokenizerSha256: sha256Hex(fs.readFileSync(tokenizerJson)),
  };
  return ensureStampedGguf(out, stamp, () => {
    const shape = SHAPES.tiny;
    const vocab = loadLlama3Vocab(tokenizerJson);
    const tensors = qwen2Tensors(shape, LLAMA3_VOCAB_ROWS, "F16", seed).filter((t) => !t.name.endsWith(".bias"));
    const metadata: [string, GgufValue][] = [
      ["general.architecture", str("llama")],
      ["general.type", str("model")],
      ["general.name", str(`blogqa random tiny llama, seed ${seed}`)],
      [
        "general.description",
        str("Random weights with Llama 3.1's real tokenizer and chat template, written by blogqa, for tests"),
      ],
      ["general.file_type", u32(1)], // MOSTLY_F16
      ...shapeMetadata("llama", shape),
      ["llama.rope.dimension_count", u32(shape.hidden / shape.heads)],
      ["llama.rope.freq_base", f32(500_000)], // Llama 3.1's rope_theta
      ["llama.attention.layer_norm_rms_epsilon", f32(1e-5)],
      ["llama.vocab_size", u32(LLAMA3_VOCAB_ROWS)],
      ["tokenizer.ggml.model", str("gpt2")],
      ["tokenizer.ggml.pre", str("llama-bpe")],
      ...vocabMetadata(vocab),
      ["tokenizer.ggml.bos_token_id", u32(LLAMA3_SPECIAL_IDS.bos)],
      ["tokenizer.ggml.eos_token_id", u32(LLAMA3_SPECIAL_IDS.eos)],
      ["tokenizer.ggml.add_bos_token", { kind: "bool", value: false }], // the template writes <|begin_of_text|>
      ["tokenizer.chat_template", str(template.text)],
    ];
    return { metadata, tensors };
  });
}
