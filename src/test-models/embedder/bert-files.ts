// The JSON files beside model.onnx, laid out as the Xenova/all-MiniLM-L6-v2 repository lays them out.
import { SPECIAL_TOKENS } from "./vocab.ts";
import type { BertShape } from "./bert-shapes.ts";

/** config.json: what transformers.js reads to pick BertModel (model_type) and what the sizes are. */
export function configJson(shape: BertShape): object {
  return {
    architectures: ["BertModel"],
    model_type: "bert",
    hidden_act: "gelu",
    hidden_size: shape.hiddenSize,
    intermediate_size: shape.intermediateSize,
    layer_norm_eps: 1e-12,
    max_position_embeddings: shape.maxPositionEmbeddings,
    num_attention_heads: shape.numAttentionHeads,
    num_hidden_layers: shape.numHiddenLayers,
    pad_token_id: 0,
    position_embedding_type: "absolute",
    type_vocab_size: shape.typeVocabSize,
    vocab_size: shape.vocabSize,
  };
}

/**
 * tokenizer.json: a BERT uncased WordPiece tokenizer over `vocabulary` (ids = positions).
 * Subtle: truncation stays null, as transformers.js ignores it anyway; the embedder truncates to 256 pieces itself.
 */
export function tokenizerJson(vocabulary: readonly string[]): object {
  const id = (token: string): number => {
    const i = vocabulary.indexOf(token);
    if (i < 0) throw new Error(`vocabulary lacks ${token}`);
    return i;
  };
  const special = (token: string, typeId: number) => ({ SpecialToken: { id: token, type_id: typeId } });
  const sequence = (name: "A" | "B", typeId: number) => ({ Sequence: { id: name, type_id: typeId } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0)],
      pair: [special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0), sequence("B", 1), special("[SEP]", 1)],
      special_tokens: Object.fromEntries(["[CLS]", "[SEP]"].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, i) => [token, i])),
    },
  };
}

/** tokenizer_config.json: model_max_length 512 as in Xenova/all-MiniLM-L6-v2 (sentence-transformers' 256 is applied by the embedder). */
export function tokenizerConfigJson(): object {
  return {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: 512,
    clean_up_tokenization_spaces: true,
    cls_token: "[CLS]",
    mask_token: "[MASK]",
    pad_token: "[PAD]",
    sep_token: "[SEP]",
    unk_token: "[UNK]",
  };
}
