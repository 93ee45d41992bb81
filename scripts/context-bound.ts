// npm run context-bound: the longest prompt each of the study's designs can send with a blog, in Qwen2.5's tokens.
import path from "node:path";
import { readdirSync } from "node:fs";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { loadCorpus, loadQuestions } from "../src/corpus/index.ts";
import { DEFAULT_CONTEXT_SIZE, loadModel } from "../src/llm/index.ts";
import { openIndex } from "../src/search/index.ts";
import { ensureTinyModel } from "../src/test-models/index.ts";
import { MAX_TURNS, STUDY_DESIGNS } from "../src/designs/index.ts";
import { studyContextBounds } from "./context-bound/parts.ts";
import { STUDY_MAX_NEW_TOKENS } from "../src/runs/index.ts";
import { defaultCacheDir } from "../src/commands/index.ts";

const argv = await yargs(hideBin(process.argv))
  .scriptName("npm run context-bound --")
  .usage(
    "$0 [options]\n\nAn upper bound on the tokens of the last prompt each of the study's designs can send with a blog " +
      "(system prompt, tool block, the longest question, then every turn's reply full and holding the calls whose " +
      "results are longest), and the context that prompt needs with its reply.",
  )
  .option("content", { type: "string", default: "content/posts", describe: "Folder of the blog's posts" })
  .option("questions", {
    type: "string",
    array: true,
    describe: "Question files whose longest question counts (default: every .jsonl in questions/)",
  })
  .option("question-tokens", {
    type: "number",
    describe: "Instead of the files' questions: any question of up to this many tokens",
  })
  .option("model", {
    type: "string",
    describe:
      "A GGUF whose tokenizer and chat template count (default: the generated tiny model, Qwen2.5's own vocabulary, merges and template)",
  })
  .option("cache-dir", { type: "string", default: defaultCacheDir(), defaultDescription: "$BLOGQA_CACHE or ./.cache" })
  .strict()
  .parse();

const cacheDir = argv["cache-dir"];
const tinyDir = path.join(cacheDir, "tiny");
const modelPath =
  argv.model ??
  (await ensureTinyModel({ out: path.join(tinyDir, "tiny-seed1.gguf"), shape: "tiny", seed: 1, cacheDir: tinyDir }))
    .path;
const corpus = await loadCorpus(argv.content);
const files =
  argv.questions ??
  readdirSync("questions")
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => path.join("questions", f));
const questions =
  argv["question-tokens"] === undefined
    ? (await Promise.all(files.map((f) => loadQuestions(f, corpus)))).flat().map((q) => q.question)
    : [];
// bm25 alone: the tools' section lookups are the real index's, and no search is run (the longest hits stand in).
const index = await openIndex(corpus, {
  retriever: "bm25",
  embeddingModel: "",
  dtype: "fp32",
  cacheDir,
  onProgress: (m) => console.error(m),
});
const model = await loadModel(modelPath, { cacheDir, gpu: false, vocabOnly: true });
try {
  const bounds = await studyContextBounds(
    model,
    index,
    { questions, ...(argv["question-tokens"] === undefined ? {} : { questionTokens: argv["question-tokens"] }) },
    { maxTurns: MAX_TURNS, maxNewTokens: STUDY_MAX_NEW_TOKENS },
  );
  const asked =
    argv["question-tokens"] === undefined
      ? `the longest of ${questions.length} questions in ${files.join(", ")}`
      : `any question of up to ${argv["question-tokens"]} tokens`;
  console.log(
    `${argv.content} (${corpus.sections.length} sections), ${asked}, ${MAX_TURNS} turns, ${STUDY_MAX_NEW_TOKENS} new tokens a call; tokens of ${path.basename(modelPath)}`,
  );
  for (const design of STUDY_DESIGNS) {
    const bound = bounds[design];
    console.log(
      `${design}: last prompt at most ${bound.lastPrompt} tokens, a context of ${bound.contextNeeded} with its reply`,
    );
    const [first, ...rest] = bound.replies;
    const describe = (reply: NonNullable<typeof first>) =>
      `${reply.calls.map((c) => `${c.count} x ${c.label}`).join(" + ")} (${reply.callTokens} call tokens, ${reply.resultTokens} result tokens)`;
    if (first !== undefined) {
      console.log(`  reply 1: ${describe(first)}`);
      if (rest.length > 0) console.log(`  replies 2-${bound.replies.length}: ${describe(rest[0]!)}`);
    }
  }
  const needed = Math.max(...STUDY_DESIGNS.map((d) => bounds[d].contextNeeded));
  const verdict = needed <= DEFAULT_CONTEXT_SIZE ? "fits" : "does NOT fit";
  console.log(`the largest, ${needed} tokens, ${verdict} the default context of ${DEFAULT_CONTEXT_SIZE}`);
} finally {
  await model.dispose();
}
