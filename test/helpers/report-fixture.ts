// A small hand-built run folder for report tests: two models, all four designs, a reply that tries to inject script.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { NO_PENALTY } from "../../src/llm/generation-config.ts";
import { newManifest, writeManifestFile, type ManifestModel, type RunManifest } from "../../src/runs/manifest.ts";
import { defaultSettings } from "../../src/runs/settings.ts";
import { DESIGN_IDS } from "../../src/designs/registry.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import type { ModelCall, ToolCallRecord } from "../../src/designs/transcript.ts";
import { FIXTURE_QUESTIONS } from "./tiny-run.ts";
import { makeRecord } from "./answer-records.ts";

export const INJECTION = `Prefill first.<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">\nSource: kv-cache-inference`;
export const FIXTURE_SLUGS = ["kv-cache-inference", "flashattention-explained", "bm25-hybrid-search"];
/** A model id that tries to break out of the server-rendered tables and charts too. */
export const EVIL_MODEL = `evil<img src=x onerror="window.__pwned=2">.gguf`;

const FIXTURE_MODELS = ["small.gguf", EVIL_MODEL];
/** The report fixture's questions, beside its log. */
const QUESTIONS_FILE = "questions.jsonl";

function manifestModelFor(id: string): ManifestModel {
  return {
    id,
    path: id,
    files: [{ path: id, bytes: 1, sha256: "0".repeat(64) }],
    architecture: "qwen2",
    chatTemplateSha256: "0".repeat(64),
    backend: "cpu",
    gpuLayers: 0,
    deviceNames: [],
    contextSize: 4096,
    nodeLlamaCppVersion: "3.21.1",
    llamaCppRelease: "b0",
    decoding: NO_PENALTY,
    threads: 1,
  };
}

const record = (tokens: number) => ({
  tokensRead: tokens,
  tokensEvaluated: tokens,
  tokensGenerated: 30,
  stopReason: "eos" as const,
  seconds: 0.2,
});

function agentCalls(question: string, finalReply: string): ModelCall[] {
  const raw = `\n{"name": "search_posts", "arguments": {"query": "prefill decode"}}\n`;
  const search: ToolCallRecord = {
    raw,
    name: "search_posts",
    arguments: { query: "prefill decode" },
    result: `[{"post": "kv-cache-inference", "heading": "Prefill and decode", "snippet": "Prefill processes the prompt </script><b>bold</b>"}]`,
    malformed: false,
    shownPosts: ["kv-cache-inference"],
  };
  const bad: ToolCallRecord = {
    raw: `{"name": "read_section", "arguments": {"post": "../../etc/passwd"`,
    name: undefined,
    arguments: undefined,
    result: `"error: JSONDecodeError: Expecting ',' delimiter: line 1 column 61 (char 60)"`,
    malformed: true,
    shownPosts: [],
  };
  const system = { role: "system" as const, content: "You answer questions about a technical blog, using its tools." };
  const user = { role: "user" as const, content: question };
  const firstReply = `<tool_call>${raw}</tool_call>\n<tool_call>${bad.raw}</tool_call>`;
  return [
    {
      messages: [system, user],
      withTools: true,
      prefix: "<tool_call>\n",
      reply: firstReply,
      record: record(300),
      toolCalls: [search, bad],
    },
    {
      messages: [
        system,
        user,
        { role: "assistant", content: firstReply },
        { role: "tool", content: search.result },
        { role: "tool", content: bad.result },
      ],
      withTools: true,
      reply: finalReply,
      record: record(520),
      toolCalls: [],
    },
  ];
}

/** Writes DIR/answers.jsonl (no manifest: slugs come from --content or are passed in) and returns DIR. */
export function writeReportFixture(): { dir: string; records: AnswerRecord[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-report-"));
  const ids = ["q01", "q02", "q03"];
  const records: AnswerRecord[] = [];
  for (const model of FIXTURE_MODELS) {
    for (const [i, id] of ids.entries()) {
      const question = id === "q01" ? "What happens in prefill? <i>really</i>" : `Question ${id}?`;
      const hits = [
        {
          post: "kv-cache-inference",
          heading: "Prefill and decode",
          snippet: "Prefill processes the prompt in parallel.",
        },
      ];
      records.push({
        ...makeRecord({
          model,
          design: "workflow",
          question_id: id,
          found: true,
          seen_posts: ["kv-cache-inference"],
          retrieval: { query: question, hits },
          answer: i < 2 ? "Prefill.\nSource: kv-cache-inference" : "Source: <post>",
        }),
        question,
      });
      const forcedAnswer = id === "q01" ? INJECTION : "Decode.\nSource: flashattention-explained";
      records.push({
        ...makeRecord({
          model,
          design: "agent-forced",
          question_id: id,
          found: true,
          seen_posts: ["kv-cache-inference"],
          calls: agentCalls(question, forcedAnswer),
          answer: forcedAnswer,
        }),
        question,
      });
      records.push({
        ...makeRecord({ model, design: "agent", question_id: id, answer: "I think so.\nSource: [Blog Post Title]" }),
        question,
      });
      records.push({
        ...makeRecord({ model, design: "agent-search-first", question_id: id, answer: "No source." }),
        question,
      });
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "answers.jsonl"), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  // The questions file a manifest of this run names: the reader holds every line's question id to it.
  const question = (id: string) => records.find((r) => r.question_id === id)!.question;
  writeFileSync(
    path.join(dir, QUESTIONS_FILE),
    ids
      .map(
        (id) => `${JSON.stringify({ id, question: question(id), post: "kv-cache-inference", heading: "A heading" })}\n`,
      )
      .join(""),
  );
  const content = path.join(dir, "content");
  mkdirSync(content);
  for (const slug of FIXTURE_SLUGS)
    writeFileSync(
      path.join(content, `${slug}.mdx`),
      `---\ntitle: ${slug}\n---\n\nIntro text for ${slug}.\n\n## A heading\n\nSome text.\n`,
    );
  return { dir, records };
}

/**
 * The report fixture's run folder, with a manifest saying it searched the fixture's own three posts; its models get
 * the GGUF names given (one per model, in the fixture's order; undefined for none).
 */
export async function runWithManifest(modelNames: readonly (string | undefined)[] = []): Promise<string> {
  const { dir } = writeReportFixture();
  await writeFixtureManifest(dir, path.join(dir, "content"), FIXTURE_MODELS, modelNames);
  return dir;
}

/**
 * Writes DIR/manifest.json as a run of `models` (every design, the report fixture's questions where DIR holds them,
 * else the fixture blog's) on the blog in `content` would; the models get the GGUF names given (one per model;
 * undefined for none).
 */
export async function writeFixtureManifest(
  dir: string,
  content: string,
  modelIds: readonly string[],
  modelNames: readonly (string | undefined)[] = [],
): Promise<void> {
  const corpus = await loadCorpus(content);
  const settings = defaultSettings({ retriever: "bm25", gpu: false });
  const selection = { models: modelIds, designs: DESIGN_IDS, limit: undefined };
  const inputs = {
    settings,
    selection,
    questionsFile: existsSync(path.join(dir, QUESTIONS_FILE)) ? path.join(dir, QUESTIONS_FILE) : FIXTURE_QUESTIONS,
    corpus,
    questionCount: 3,
    embedding: undefined,
  };
  const manifest = newManifest(inputs, new Date());
  const models = modelIds.map((id, i) => ({
    ...manifestModelFor(id),
    ...(modelNames[i] !== undefined ? { name: modelNames[i] } : {}),
  }));
  writeManifestFile(dir, { ...manifest, models });
}

/**
 * The fixture run with its manifest, and every run again as sample 1, where the agent loop cites the right post:
 * its page gets the samples section and its chart.
 */
export async function runWithSamples(): Promise<string> {
  const dir = await runWithManifest();
  const file = path.join(dir, "answers.jsonl");
  const first = readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as AnswerRecord);
  const answer = "Prefill.\nSource: kv-cache-inference";
  const second = first.map((r) => {
    if (r.design !== "agent") return { ...r, sample: 1 };
    const calls = r.transcript.calls.map((c, i, all) => (i === all.length - 1 ? { ...c, reply: answer } : c));
    return { ...r, sample: 1, answer, transcript: { ...r.transcript, answer, calls } };
  });
  writeFileSync(file, [...first, ...second].map((r) => `${JSON.stringify(r)}\n`).join(""));
  const manifestFile = path.join(dir, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as RunManifest;
  writeManifestFile(dir, { ...manifest, settings: { ...manifest.settings, samples: 2 } });
  return dir;
}
