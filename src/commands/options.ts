// Options shared by several commands, defined once so that --help says the same thing everywhere.
import path from "node:path";
import type { Options } from "yargs";
import { RETRIEVER_KINDS } from "../search/types.ts";

/** Where caches live: the index, downloaded models, generated tiny models. */
export function defaultCacheDir(): string {
  return process.env.BLOGQA_CACHE ?? path.resolve(".cache");
}

export const contentOption = {
  content: { type: "string", default: "content/posts", describe: "Folder of the blog's posts (.mdx and .md, in subfolders too)" },
} satisfies Record<string, Options>;

export const questionsOption = {
  questions: { type: "string", default: "questions/questions.jsonl", describe: "Questions file (JSONL)" },
} satisfies Record<string, Options>;

export const searchOptions = {
  ...contentOption,
  retriever: { choices: RETRIEVER_KINDS, default: "hybrid", describe: "bm25, dense (MiniLM) or hybrid (reciprocal rank fusion of both)" },
  "embedding-model": {
    type: "string",
    default: "Xenova/all-MiniLM-L6-v2",
    describe: "Embedding model: a Hugging Face hub id or a local folder (unused with --retriever bm25)",
  },
  "embedding-dtype": { choices: ["fp32", "fp16", "q8"], default: "fp32", describe: "Embedding model weights to load" },
  "cache-dir": { type: "string", default: defaultCacheDir(), defaultDescription: "$BLOGQA_CACHE or ./.cache", describe: "Index and model cache" },
} satisfies Record<string, Options>;

export const jsonOption = {
  json: { type: "boolean", default: false, describe: "Print JSON instead of a table" },
} satisfies Record<string, Options>;

/** How rescore, compare and report name a run: a folder or its answers.jsonl, and the blog to score it against. */
export const runFolderOptions = {
  content: {
    type: "string",
    describe:
      "Folder of the blog's posts whose slugs the strict scorer looks for (default: the posts listed in the run's manifest.json, else content/posts); " +
      "must be the blog the run searched",
  },
  force: { type: "boolean", default: false, describe: "Score against --content even when it is not the blog the manifest records" },
} satisfies Record<string, Options>;

export const runPositional = { type: "string", demandOption: true, describe: "A run folder, or the answers.jsonl inside one" } as const;
