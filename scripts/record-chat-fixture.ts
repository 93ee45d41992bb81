// Records test/fixtures/llama-server-chat.json: the real llama-server's answers to the requests the agent loop sends
// in --server-mode chat, for test/llm/server-chat.test.ts to replay. Run it again after changing what the loop
// sends, or when node-llama-cpp's llama.cpp changes: `npx tsx scripts/record-chat-fixture.ts` (needs
// scripts/build-llama-server.sh first).
//
// The tiny model has random weights and would never write a call on its own: the server is started with the logit
// biases of TOOL_CALL_BIASES (test/helpers/llama-server.ts) on its command line. The requests carry no bias: they
// are exactly what the loop sends.
import { writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { openServerModel } from "../src/llm/index.ts";
import { openaiChat } from "../src/toolcalls/index.ts";
import { runDesign } from "../src/designs/run-design.ts";
import { withMaxTokens } from "../src/runs/sampling.ts";
import type { StudyDesignId } from "../src/designs/registry.ts";
import { bundleHead, llamaCppBundlePath } from "../src/test-models/gguf/qwen25-template.ts";
import { startLlamaServer, TOOL_CALL_BIASES } from "../test/helpers/llama-server.ts";
import { repoRoot } from "../test/helpers/run-cli.ts";
import { fakeIndex } from "../test/helpers/scripted-runtime.ts";
import { testCacheDir, tinyModelPath } from "../test/helpers/tiny-model.ts";

export const FIXTURE = path.join(repoRoot, "test", "fixtures", "llama-server-chat.json");
export const FIXTURE_QUESTION = "How can a maximum and a running sum be updated incrementally?";
/** New tokens per call: enough for some calls to close, not for every call. */
export const FIXTURE_MAX_TOKENS = 80;

/** One request the loop sent and what the server answered. */
export interface Exchange {
  readonly design: StudyDesignId;
  readonly request: unknown;
  readonly status: number;
  readonly response: unknown;
}

/** A proxy in front of the server that keeps every /v1/chat/completions exchange. */
async function recordingProxy(target: string, exchanges: Exchange[], design: () => StudyDesignId) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", async () => {
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers: { "content-type": "application/json" },
        ...(req.method === "POST" ? { body } : {}),
      });
      const text = await answer.text();
      if (req.url === "/v1/chat/completions")
        exchanges.push({
          design: design(),
          request: JSON.parse(body),
          status: answer.status,
          response: JSON.parse(text),
        });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() };
}

async function main() {
  const llama = await startLlamaServer(await tinyModelPath(), { extraArgs: ["--alias", "tiny", ...TOOL_CALL_BIASES] });
  const exchanges: Exchange[] = [];
  let design: StudyDesignId = "agent-forced";
  const proxy = await recordingProxy(llama.rootUrl, exchanges, () => design);
  try {
    const model = await openServerModel({
      url: proxy.url,
      model: "tiny",
      mode: "chat",
      timeoutSeconds: 60,
      retries: 0,
      repetitionPenalty: "none",
      reuseCache: true,
      cacheDir: testCacheDir,
    });
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    for (const d of ["agent-forced", "agent", "workflow"] as const) {
      design = d;
      await runDesign(d, {
        question: FIXTURE_QUESTION,
        runtime: withMaxTokens(runtime!, FIXTURE_MAX_TOKENS),
        index: fakeIndex(),
        dialect: openaiChat,
      });
    }
    const props = (await (await fetch(`${llama.rootUrl}/props`)).json()) as { build_info?: string };
    const fixture = {
      about:
        "Recorded from a real llama-server by scripts/record-chat-fixture.ts (the tiny generated model, logit " +
        "biases on the server's command line so that it writes tool calls); replayed by test/llm/server-chat.test.ts",
      llama_cpp_commit: bundleHead(llamaCppBundlePath()).commit,
      build_info: props.build_info ?? null,
      server_args: TOOL_CALL_BIASES,
      question: FIXTURE_QUESTION,
      max_tokens: FIXTURE_MAX_TOKENS,
      exchanges,
    };
    writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 1)}\n`);
    console.log(`${exchanges.length} exchanges written to ${FIXTURE}`);
  } finally {
    proxy.close();
    await llama.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
