// Makes the agent model's training data with the harness itself: each design runs on synthetic questions over
// reshaped blogs, with the policy (policy.ts) standing in for the model; every prompt is rendered by the Qwen2.5
// template exactly as a real run renders it, and tokenized by llama.cpp. Writes DIR/tokens.u32, DIR/mask.u8 and
// DIR/data.json (sequence offsets and what made them).
//
//   tsx scripts/train-agent/make-data.ts --out .cache/train-agent/data [--runs 6000] [--variants 8]
import fs from "node:fs";
import path from "node:path";
import { getLlama, type Token } from "node-llama-cpp";
import { loadCorpus } from "../../src/corpus/index.ts";
import { openIndex } from "../../src/search/index.ts";
import { DESIGN_IDS, runDesign, type DesignId } from "../../src/designs/index.ts";
import { loadModel, type ChatRuntime, type GenerateRequest } from "../../src/llm/index.ts";
import { ensureTinyModel } from "../../src/test-models/index.ts";
import { policyReply } from "./policy.ts";
import { questionFor } from "./questions.ts";
import { reshapedBlog } from "./blogs.ts";
import { Random } from "./random.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const outDir = path.resolve(flag("out", ".cache/train-agent/data"));
const runsWanted = Number(flag("runs", "6000"));
const variants = Number(flag("variants", "8"));
const content = flag("content", "content/posts");
const cacheDir = path.resolve(".cache/train-agent");

/** How often each design is drawn: the study's four most, the engineered ones enough to learn their messages. */
const DESIGN_WEIGHTS: Readonly<Record<DesignId, number>> = Object.fromEntries(
  DESIGN_IDS.map((d) => [d, d === "workflow" ? 4 : d.startsWith("agent") && !d.includes("-c") ? 3 : 1]),
) as Record<DesignId, number>;

interface Captured {
  readonly prompt: string;
  readonly prefix: string;
  readonly reply: string;
}

async function main(): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  const tiny = await ensureTinyModel({ out: path.join(cacheDir, "tokenizer-seed1.gguf"), cacheDir });
  const rendering = await loadModel(tiny.path, { cacheDir, vocabOnly: true, gpu: false });
  const llama = await getLlama({ gpu: false });
  const vocab = await llama.loadModel({ modelPath: tiny.path, vocabOnly: true });
  const tokenize = (text: string): number[] => [...vocab.tokenize(text, true)].map(Number);
  const imEnd = tokenize("<|im_end|>");
  if (imEnd.length !== 1) throw new Error("<|im_end|> is not one token");

  const ours = await loadCorpus(content);
  const random = new Random("train-agent-data");
  const tokens: number[] = [];
  const mask: number[] = [];
  const offsets: number[] = [0];
  const counts: Record<string, number> = {};
  let mismatched = 0;
  const samples: string[] = [];
  const perVariant = Math.ceil(runsWanted / variants);

  for (let v = 0; v < variants; v++) {
    const corpus = reshapedBlog(ours, v);
    const index = await openIndex(corpus, {
      retriever: "bm25",
      embeddingModel: "none",
      dtype: "fp32",
      cacheDir: path.join(cacheDir, "index"),
    });
    for (let r = 0; r < perVariant; r++) {
      const section = random.pick(corpus.sections);
      const question = questionFor(section, random);
      const design = random.weighted(DESIGN_IDS.map((d) => [d, DESIGN_WEIGHTS[d]] as const));
      const captured: Captured[] = [];
      const runtime: ChatRuntime = {
        generate: async (request: GenerateRequest) => {
          const prompt = rendering.renderPrompt(request);
          const reply = policyReply(request);
          captured.push({ prompt, prefix: request.prefix ?? "", reply });
          const record = {
            stopReason: "eos",
            tokensRead: 0,
            tokensEvaluated: 0,
            tokensGenerated: 0,
            seconds: 0,
          } as const;
          return { prompt, text: reply, record };
        },
      };
      await runDesign(design, { question, runtime, index });
      const sequence = sequenceOf(captured, tokenize, imEnd[0]!);
      if (sequence === undefined) {
        mismatched++;
        continue;
      }
      if (samples.length < 40)
        samples.push(
          `=== ${design}: ${question}\n${captured.map((c) => `${c.prompt.slice(-700)}>>>${c.reply.slice(c.prefix.length)}<<<`).join("\n---\n")}`,
        );
      tokens.push(...sequence.tokens);
      mask.push(...sequence.mask);
      offsets.push(tokens.length);
      counts[design] = (counts[design] ?? 0) + 1;
    }
    process.stderr.write(`variant ${v}: ${corpus.posts.length} posts, ${offsets.length - 1} sequences so far\n`);
  }

  fs.writeFileSync(path.join(outDir, "tokens.u32"), Buffer.from(Uint32Array.from(tokens).buffer));
  fs.writeFileSync(path.join(outDir, "mask.u8"), Buffer.from(Uint8Array.from(mask)));
  fs.writeFileSync(path.join(outDir, "samples.txt"), samples.join("\n\n"));
  const used = [...new Set(tokens)].sort((a, b) => a - b);
  // Each used token's text: train.py gives tokens that differ only by a leading space the same copy code.
  const usedTexts = used.map((id) => vocab.detokenize([id as Token], true));
  const data = {
    sequences: offsets.length - 1,
    tokens: tokens.length,
    offsets,
    used_tokens: used,
    used_token_texts: usedTexts,
    counts,
    mismatched,
  };
  fs.writeFileSync(path.join(outDir, "data.json"), JSON.stringify(data));
  process.stderr.write(
    `${data.sequences} sequences, ${tokens.length} tokens (${mask.filter(Boolean).length} trained), ${used.length} distinct, ${mismatched} dropped\n`,
  );
  await vocab.dispose();
  await rendering.dispose();
}

/**
 * One run as one token sequence: the last call's prompt holds every earlier call's prompt and reply, so the run is
 * that prompt, then its reply, with the loss on each reply the model wrote (the forced prefix excluded) and on the
 * <|im_end|> that ends it. Undefined when a call's prompt does not extend the last, or tokenizing in pieces differs
 * from tokenizing the whole (the model would then train on tokens it never reads).
 */
function sequenceOf(
  calls: readonly Captured[],
  tokenize: (text: string) => number[],
  imEnd: number,
): { tokens: number[]; mask: number[] } | undefined {
  const canonical: number[] = [];
  const tokens: number[] = [];
  const mask: number[] = [];
  let text = "";
  for (const call of calls) {
    if (!call.prompt.startsWith(text)) return undefined;
    const glue = tokenize(call.prompt.slice(text.length));
    if (text !== "") {
      if (glue[0] !== imEnd) return undefined;
      mask.push(1, ...glue.slice(1).map(() => 0));
    } else mask.push(...glue.map(() => 0));
    canonical.push(...glue);
    tokens.push(...glue);
    const replyText = call.reply.slice(call.prefix.length);
    canonical.push(...tokenize(replyText));
    const reply = taughtTokens(replyText, tokenize);
    tokens.push(...reply);
    mask.push(...reply.map(() => 1));
    text = call.prompt + replyText;
  }
  canonical.push(imEnd);
  tokens.push(imEnd);
  mask.push(1);
  const whole = tokenize(`${text}<|im_end|>`);
  if (whole.length !== canonical.length || whole.some((t, i) => t !== canonical[i])) return undefined;
  return { tokens, mask };
}

/**
 * A reply's tokens as the model is taught to write them: canonical, but for the posts of its Source line, which it
 * writes in the tokens they have where it read them (`"post": "beyond-vector-rag"` tokenizes as b, eyond, -vector...,
 * "Source: beyond-vector-rag" canonically as " beyond", -vector...). The text is the same; copying token for token
 * is what the planted copy circuit does. The next prompt holds the reply re-tokenized, as a real run renders it.
 */
function taughtTokens(reply: string, tokenize: (text: string) => number[]): number[] {
  const at = reply.lastIndexOf("\nSource: ");
  if (at < 0) return tokenize(reply);
  const head = tokenize(reply.slice(0, at + "\nSource: ".length));
  const quote = tokenize(' "');
  const posts = reply
    .slice(at + "\nSource: ".length)
    .split(", ")
    .map((post) => tokenize(` "${post}`).slice(quote.length));
  return [...head, ...posts.flatMap((post, i) => (i === 0 ? post : [...tokenize(", "), ...post]))];
}

await main();
