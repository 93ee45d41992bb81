// Which of a reply's tokens its text leaves out. The study decoded with Transformers' skip_special_tokens=True, which
// drops the added tokens its tokenizer marks special and keeps every other token's text; llama.cpp drops its control
// tokens instead, and makes control tokens of some that Qwen2.5 marks not special (<|fim_prefix|>, <|file_sep|>).
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../common/index.ts";
import { sha256Hex } from "../common/index.ts";
import type { HubSource } from "./generation-config.ts";

export const TOKENIZER_CONFIG = "tokenizer_config.json";

/** The rule a model's replies are decoded by, and where it was read: recorded with the decoding in the manifest. */
export type SpecialTokens =
  | {
      /** The original tokenizer's: the ids in `special` are left out, every other token keeps its text. */
      readonly source: "tokenizer_config.json";
      readonly path: string;
      readonly sha256: string;
      /** Set when the file was fetched from the hub. */
      readonly hub: HubSource | null;
      /** The ids its added_tokens_decoder marks "special": true. */
      readonly special: readonly number[];
      readonly note: string;
    }
  /** llama.cpp's: its control tokens and end-of-generation tokens are left out (the GGUF's token types). */
  | { readonly source: "gguf"; readonly note: string }
  /** The server's own: llama-server's is llama.cpp's, vLLM's and SGLang's the original tokenizer's. */
  | { readonly source: "server"; readonly note: string };

/** llama.cpp's rule, with `why` no tokenizer_config.json set it. */
export function ggufSpecialTokens(why: string): SpecialTokens {
  return { source: "gguf", note: `replies leave out llama.cpp's control tokens (the GGUF's token types): ${why}` };
}

/**
 * The ids an added_tokens_decoder marks special, sorted, or what is wrong with it. Example:
 * specialIds({"151645": {"content": "<|im_end|>", "special": true}, "151659": {..., "special": false}}) is [151645].
 */
export function specialIds(decoder: unknown): readonly number[] | string {
  if (typeof decoder !== "object" || decoder === null || Array.isArray(decoder)) return "is not an object";
  const ids: number[] = [];
  for (const [key, token] of Object.entries(decoder)) {
    if (!/^\d+$/.test(key)) return `has the key ${JSON.stringify(key)}, not a token id`;
    const special = (token as { special?: unknown } | null)?.special;
    if (typeof special !== "boolean") return `has no "special": true or false for token ${key}`;
    if (special) ids.push(Number(key));
  }
  return ids.sort((a, b) => a - b);
}

/**
 * The rule a tokenizer_config.json sets: its added_tokens_decoder's, or llama.cpp's when it has none. A file that
 * cannot be read, or whose added_tokens_decoder is malformed, is one error line naming it.
 */
export function readTokenizerConfig(file: string, hub: HubSource | null): SpecialTokens {
  const resolved = path.resolve(file);
  let bytes: Buffer;
  let json: { added_tokens_decoder?: unknown } | null;
  try {
    bytes = fs.readFileSync(resolved);
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UserError(`cannot read the tokenizer config ${resolved}: ${reason}`);
  }
  const decoder = typeof json === "object" && json !== null ? json.added_tokens_decoder : undefined;
  if (decoder === undefined) return ggufSpecialTokens(`${resolved} has no added_tokens_decoder`);
  const ids = specialIds(decoder);
  if (typeof ids === "string") throw new UserError(`${resolved}: its added_tokens_decoder ${ids}`);
  const from = hub ? `${hub.repo}@${hub.revision}, ${resolved}` : resolved;
  return {
    source: "tokenizer_config.json",
    path: resolved,
    sha256: sha256Hex(bytes),
    hub,
    special: ids,
    note: `replies leave out the ${ids.length} tokens the tokenizer config (${from}) marks special; every other keeps its text`,
  };
}

/** The ids a reply's text leaves out by the tokenizer config's rule, or null for llama.cpp's (and a server's). */
export function specialIdSet(rule: SpecialTokens): ReadonlySet<number> | null {
  return rule.source === "tokenizer_config.json" ? new Set(rule.special) : null;
}
