// The study's example exchange rendered through the tiny model's (real Qwen2.5) template, checked byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadModel } from "../../src/llm/index.ts";
import { compileChatTemplate, renderChatPrompt } from "../../src/llm/chat-template.ts";
import { SEARCH_POSTS } from "../../src/designs/tools.ts";
import { STUDY_EXAMPLE } from "../../src/designs/study-example.ts";
import { UserError } from "../../src/common/errors.ts";
import { runCli } from "../helpers/run-cli.ts";
import { testCacheDir, tinyModelPath } from "../helpers/tiny-model.ts";

/** Written by hand from Qwen2.5-Instruct's template: tools go into the system turn, a tool result into a user turn. */
const EXPECTED = [
  "<|im_start|>system",
  "You answer questions about a technical blog, using its tools.",
  "",
  "# Tools",
  "",
  "You may call one or more functions to assist with the user query.",
  "",
  "You are provided with function signatures within <tools></tools> XML tags:",
  "<tools>",
  '{"type": "function", "function": {"name": "search_posts", "description": "Search the blog.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}',
  "</tools>",
  "",
  "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
  "<tool_call>",
  '{"name": <function-name>, "arguments": <args-json-object>}',
  "</tool_call><|im_end|>",
  "<|im_start|>user",
  "How can a maximum and a running sum be updated incrementally?<|im_end|>",
  "<|im_start|>assistant",
  "<tool_call>",
  '{"name": "search_posts", "arguments": {"query": "online softmax running maximum"}}',
  "</tool_call><|im_end|>",
  "<|im_start|>user",
  "<tool_response>",
  '[{"post": "flashattention-explained", "heading": "The online softmax", "snippet": "Keep a running maximum m..."}]',
  "</tool_response><|im_end|>",
  "<|im_start|>assistant",
  "",
].join("\n");

async function tinyTemplate() {
  const model = await loadModel(await tinyModelPath(), { cacheDir: testCacheDir, gpu: false, vocabOnly: true });
  try {
    const prompt = model.renderPrompt(STUDY_EXAMPLE);
    return { prompt, tokens: model.countTokens(prompt) };
  } finally {
    await model.dispose();
  }
}

test("the study's example renders through the model's own template exactly as the study printed it", async () => {
  const { prompt } = await tinyTemplate();
  assert.equal(prompt, EXPECTED);
});

test("the forced prefix is appended after the generation prompt", async () => {
  const model = await loadModel(await tinyModelPath(), { cacheDir: testCacheDir, gpu: false, vocabOnly: true });
  try {
    const prompt = model.renderPrompt({ ...STUDY_EXAMPLE, prefix: "<tool_call>\n" });
    assert.equal(prompt, `${EXPECTED}<tool_call>\n`);
  } finally {
    await model.dispose();
  }
});

test("tool schemas keep non-ASCII as is, like transformers' tojson (json.dumps with ensure_ascii=False)", async () => {
  const source = fs.readFileSync(await qwenTemplateFile(), "utf8");
  const template = compileChatTemplate(source, "test");
  const tool = { ...SEARCH_POSTS, function: { ...SEARCH_POSTS.function, description: "Cherche — « été » <b>&</b>" } };
  const prompt = renderChatPrompt(template, { messages: [{ role: "user", content: "q" }], tools: [tool] });
  assert.ok(prompt.includes('"description": "Cherche — « été » <b>&</b>"'), prompt);
});

test("a request without tools renders the plain system turn", async () => {
  const template = compileChatTemplate(fs.readFileSync(await qwenTemplateFile(), "utf8"), "test");
  const prompt = renderChatPrompt(template, {
    messages: [
      { role: "system", content: "S" },
      { role: "user", content: "Q" },
    ],
    tools: [],
  });
  assert.equal(prompt, "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n");
});

test("`template --model M` prints only the rendered exchange on stdout and the schema cost on stderr", async () => {
  const result = runCli(["template", "--model", await tinyModelPath(), "--cache-dir", testCacheDir]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, EXPECTED);
  const { tokens: withTools } = await tinyTemplate();
  const match = /the tool schemas \(search_posts\) add (\d+) tokens to every call; this prompt is (\d+) tokens/.exec(
    result.stderr,
  );
  assert.ok(match, result.stderr);
  assert.equal(Number(match[2]), withTools);
  assert.ok(Number(match[1]) > 50 && Number(match[1]) < withTools);
});

test("a model without a chat template is a UserError naming --chat-template, and the flag supplies one", async (t) => {
  const bare = await modelWithoutTemplate();
  t.after(() => fs.rmSync(path.dirname(bare), { recursive: true, force: true }));
  await assert.rejects(
    loadModel(bare, { cacheDir: testCacheDir, gpu: false, vocabOnly: true }),
    (e: unknown) => e instanceof UserError && e.message.includes("--chat-template"),
  );
  const refused = runCli(["template", "--model", bare, "--cache-dir", testCacheDir]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /^blogqa: .*--chat-template FILE/m);
  assert.doesNotMatch(refused.stderr, /\n\s+at /); // no stack trace
  const given = runCli([
    "template",
    "--model",
    bare,
    "--chat-template",
    await qwenTemplateFile(),
    "--cache-dir",
    testCacheDir,
  ]);
  assert.equal(given.status, 0, given.stderr);
  assert.equal(given.stdout, EXPECTED);
});

/** The Qwen2.5 template as a file, taken from the tiny model's metadata. */
async function qwenTemplateFile(): Promise<string> {
  const file = path.join(testCacheDir, "qwen2.5-template.jinja");
  const { readGgufFileInfo } = await import("node-llama-cpp"); // reads the file only, no llama.cpp backend
  const info = await readGgufFileInfo(await tinyModelPath(), { readTensorInfo: false });
  fs.writeFileSync(file, String(info.metadata.tokenizer.chat_template));
  return file;
}

/** A copy of the tiny model whose chat-template key is renamed, so llama.cpp sees no template (in a temp folder: 45 MB). */
async function modelWithoutTemplate(): Promise<string> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-no-template-")), "tiny-seed1-no-template.gguf");
  const bytes = fs.readFileSync(await tinyModelPath());
  const key = Buffer.from("tokenizer.chat_template");
  const at = bytes.indexOf(key);
  assert.ok(at > 0);
  bytes.write("tokenizer.chat_templatX", at, "latin1");
  fs.writeFileSync(out, bytes);
  return out;
}
