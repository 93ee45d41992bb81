// The server backend against a fake OpenAI-compatible server on 127.0.0.1: the request it sends, the accounting it
// reads, timeouts and retries, failed calls logged as call errors, and a run whose server dies resuming to the same log.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openServerModel } from "../../src/llm/index.ts";
import type { ServerModelOptions } from "../../src/llm/server-model.ts";
import type { Question } from "../../src/corpus/types.ts";
import { UserError } from "../../src/common/errors.ts";
import { fakeIndex } from "../helpers/scripted-runtime.ts";
import { echoAnswer, FAKE_TEMPLATE, startFakeServer, type FakeServer } from "../helpers/fake-openai-server.ts";
import { runStudyIn } from "../helpers/run-in-folder.ts";

const REQUEST = { messages: [{ role: "user" as const, content: "What is the online softmax?" }], maxTokens: 50 };
const RENDERED = "<|im_start|>user\nWhat is the online softmax?<|im_end|>\n<|im_start|>assistant\n";

function options(server: FakeServer, changes: Partial<ServerModelOptions> = {}): ServerModelOptions {
  return {
    url: server.url,
    model: "tiny",
    mode: "completions",
    timeoutSeconds: 5,
    retries: 2,
    backoffMs: 10,
    repetitionPenalty: "none",
    reuseCache: true,
    cacheDir: mkdtempSync(path.join(tmpdir(), "blogqa-server-")),
    ...changes,
  };
}

async function withServer(
  answer: Parameters<typeof startFakeServer>[0],
  body: (server: FakeServer) => Promise<void>,
  serverOptions: Parameters<typeof startFakeServer>[1] = {},
) {
  const server = await startFakeServer(answer, serverOptions);
  try {
    await body(server);
  } finally {
    await server.kill().catch(() => {});
  }
}

test("a sampled call sends its temperature, top_k, top_p, min_p 0 and seed in place of the greedy ones, in both modes", async () => {
  await withServer(echoAnswer, async (server) => {
    const sampling = { temperature: 0.7, topK: 20, topP: 0.8, seed: 123456789 };
    for (const mode of ["completions", "chat"] as const) {
      const model = await openServerModel(options(server, { mode }));
      const [runtime] = await model.openRuntimes(1, { reuseCache: true });
      await runtime!.generate({ ...REQUEST, sampling });
      const body = server.calls.at(-1)!.body;
      assert.deepEqual(
        // min_p 0: llama-server would otherwise apply its own default of 0.05
        [body.temperature, body.top_k, body.top_p, body.min_p, body.seed, body.stream],
        [0.7, 20, 0.8, 0, 123456789, false],
        mode,
      );
    }
  });
});

test("completions mode sends the prompt rendered with the server's template, greedy, and reads usage", async () => {
  await withServer(echoAnswer, async (server) => {
    const model = await openServerModel(options(server, { repetitionPenalty: 1.1 }));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate({ ...REQUEST, prefix: "<tool_call>\n" });
    const body = server.calls[0]!.body;
    assert.equal(body.prompt, `${RENDERED}<tool_call>\n`);
    assert.deepEqual(
      { ...body, prompt: undefined },
      {
        model: "tiny",
        prompt: undefined,
        max_tokens: 50,
        temperature: 0,
        top_k: 1,
        seed: 0,
        stream: false,
        repeat_penalty: 1.1,
        repeat_last_n: 4096,
        frequency_penalty: 0,
        presence_penalty: 0,
        cache_prompt: true,
      },
    );
    // The reply starts with the forced prefix, as the in-process runtime's does.
    const promptTokens = String(body.prompt).length;
    assert.equal(generation.text, `<tool_call>\nReply to ${promptTokens} characters. Source: flashattention-explained`);
    assert.deepEqual(
      { ...generation.record, seconds: 0 },
      {
        tokensRead: promptTokens,
        tokensEvaluated: promptTokens - 3,
        tokensGenerated: 7,
        seconds: 0,
        stopReason: "eos",
      },
    );
    assert.equal(model.info.backend, "server");
    assert.equal(model.info.server?.flavor, "llama-server");
    assert.equal(model.info.server?.props?.build_info, "b0000-fake");
    assert.equal(model.info.server?.props?.chat_template, undefined, "the template is recorded by its sha256");
  });
});

test("without cached_tokens in usage, tokens evaluated are unknown (undefined, never 0); length is max-tokens", async () => {
  const answer = () => ({
    json: { choices: [{ text: "abc", finish_reason: "length" }], usage: { prompt_tokens: 12, completion_tokens: 50 } },
  });
  await withServer(
    answer,
    async (server) => {
      const model = await openServerModel(options(server, { chatTemplate: templateFile() }));
      const [runtime] = await model.openRuntimes(1, { reuseCache: false });
      const generation = await runtime!.generate(REQUEST);
      assert.equal(generation.record.tokensEvaluated, undefined);
      assert.equal(generation.record.stopReason, "max-tokens");
      // Not llama-server (no /props): Transformers' name for the penalty, no cache_prompt.
      assert.equal(model.info.server?.flavor, "openai");
      assert.equal(server.calls[0]!.body.cache_prompt, undefined);
    },
    { props: false },
  );
});

test("a format's control tokens are kept in the reply: llama-server's preserved_tokens, else skip_special_tokens", async () => {
  for (const props of [true, false]) {
    await withServer(
      echoAnswer,
      async (server) => {
        const model = await openServerModel(options(server, props ? {} : { chatTemplate: templateFile() }));
        const [runtime] = await model.openRuntimes(1, { reuseCache: true });
        await runtime!.generate({ ...REQUEST, keepTokens: ["[TOOL_CALLS]"] });
        await runtime!.generate(REQUEST);
        const [kept, plain] = server.calls.map((c) => c.body);
        if (props) assert.deepEqual(kept!.preserved_tokens, ["[TOOL_CALLS]"]);
        else assert.equal(kept!.skip_special_tokens, false);
        // A format that keeps nothing (the study's hermes) sends neither field.
        assert.equal(plain!.preserved_tokens, undefined);
        assert.equal(plain!.skip_special_tokens, undefined);
      },
      { props },
    );
  }
});

test("a server that reports no template and none given is refused with a line naming --chat-template", async () => {
  await withServer(
    echoAnswer,
    async (server) => {
      await assert.rejects(openServerModel(options(server)), (e: Error) => {
        assert.ok(e instanceof UserError);
        assert.match(e.message, /--chat-template FILE/);
        return true;
      });
    },
    { props: false },
  );
});

test("a slow server hits the timeout and the call is tried again", async () => {
  const answer = (call: { n: number }) =>
    call.n === 1 ? { ...echoAnswer(call as never), delayMs: 3000 } : echoAnswer(call as never);
  await withServer(answer, async (server) => {
    const retries: string[] = [];
    const model = await openServerModel({
      ...options(server, { timeoutSeconds: 0.3 }),
      onProgress: (m) => retries.push(m),
    });
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate(REQUEST);
    assert.equal(generation.record.stopReason, "eos");
    assert.equal(server.calls.length, 2);
    assert.ok(
      retries.some((m) => /no answer within 0.3 s; try 2 of 3/.test(m)),
      retries.join("\n"),
    );
  });
});

test("429 and 5xx are retried; a 500 that persists is logged as a call error, never an answer", async () => {
  const answer = (call: { n: number }) =>
    call.n === 1
      ? { status: 429, json: { error: { message: "busy", type: "unavailable_error" } } }
      : { status: 503, json: { error: { code: 503, message: "Loading model", type: "unavailable_error" } } };
  await withServer(answer, async (server) => {
    const model = await openServerModel(options(server));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate(REQUEST);
    assert.equal(server.calls.length, 3, "one try and two retries");
    assert.equal(generation.text, "");
    assert.equal(generation.record.stopReason, "error");
    assert.equal((generation.record as { error: string }).error, "server: HTTP 503 (after 3 tries): Loading model");
  });
});

test("llama-server's 500 for a reply that is not valid UTF-8 is a refused call at once: greedy would repeat it", async () => {
  const message = "The model produced output that does not match the expected Content-only format";
  const answer = () => ({ status: 500, json: { error: { code: 500, message, type: "server_error" } } });
  await withServer(answer, async (server) => {
    const model = await openServerModel(options(server));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate(REQUEST);
    assert.equal(server.calls.length, 1);
    assert.equal(generation.record.stopReason, "refused");
    assert.equal((generation.record as { error: string }).error, `server: HTTP 500: ${message}`);
  });
});

test("a prompt over the server's context is a context overflow, not retried", async () => {
  const answer = () => ({
    status: 400,
    json: {
      error: {
        code: 400,
        message: "request (5000 tokens) exceeds the available context size (4096 tokens)",
        type: "exceed_context_size_error",
      },
    },
  });
  await withServer(answer, async (server) => {
    const model = await openServerModel(options(server));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate(REQUEST);
    assert.equal(server.calls.length, 1);
    assert.equal(generation.record.stopReason, "context-overflow");
  });
});

test("the API key goes in the Authorization header and nowhere in the model's info", async () => {
  process.env.BLOGQA_TEST_KEY = "sk-secret-123";
  try {
    await withServer(echoAnswer, async (server) => {
      const model = await openServerModel(options(server, { apiKeyEnv: "BLOGQA_TEST_KEY" }));
      const [runtime] = await model.openRuntimes(1, { reuseCache: true });
      await runtime!.generate(REQUEST);
      assert.equal(server.calls[0]!.headers.authorization, "Bearer sk-secret-123");
      assert.equal(model.info.server?.apiKeyEnv, "BLOGQA_TEST_KEY");
      assert.ok(!JSON.stringify(model.info).includes("sk-secret-123"));
    });
    await assert.rejects(
      openServerModel({ ...options({ url: "http://127.0.0.1:9/v1" } as FakeServer), apiKeyEnv: "BLOGQA_UNSET_KEY" }),
      /--api-key-env BLOGQA_UNSET_KEY: that variable is not set/,
    );
  } finally {
    delete process.env.BLOGQA_TEST_KEY;
  }
});

test("an unreachable server is one line naming its URL", async () => {
  await assert.rejects(openServerModel(options({ url: "http://127.0.0.1:9/v1" } as FakeServer)), (e: Error) => {
    assert.ok(e instanceof UserError);
    assert.match(e.message, /^No OpenAI-compatible server answered at http:\/\/127\.0\.0\.1:9\/v1\/models/);
    return true;
  });
});

const QUESTIONS: Question[] = Array.from({ length: 4 }, (_, i) => ({
  id: `q${i + 1}`,
  question: `Question ${i + 1} about the running maximum?`,
  post: "flashattention-explained",
  heading: "The online softmax",
}));

async function runOn(server: FakeServer, dir: string, parallel: number) {
  return runStudyIn(dir, {
    models: ["tiny"],
    designs: ["workflow", "agent"],
    questions: QUESTIONS,
    openModel: () => openServerModel(options(server, { retries: 1 })),
    index: fakeIndex(),
    settings: { parallel, reuseCache: true, sharedContext: false, maxNewTokens: 200 },
  });
}

const stableLog = (dir: string) =>
  readFileSync(path.join(dir, "answers.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.stringify(JSON.parse(line), (key, value) => (key === "seconds" ? 0 : value)));

test("a server killed mid-run stops the run with what finished logged; run again, it resumes to the same log", async () => {
  const whole = mkdtempSync(path.join(tmpdir(), "blogqa-server-run-"));
  await withServer(echoAnswer, async (server) => {
    await runOn(server, whole, 2);
  });
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-server-run-"));
  let server: FakeServer | undefined;
  let killed = false;
  server = await startFakeServer((call) => {
    if (call.n === 5 && !killed) {
      killed = true;
      void server!.kill();
    }
    return echoAnswer(call);
  });
  try {
    await assert.rejects(runOn(server, dir, 2), (e: Error) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /did not answer after 2 tries .*run the same command again to resume/);
      return true;
    });
    const partial = stableLog(dir);
    assert.ok(partial.length > 0 && partial.length < 8, `${partial.length} runs logged before the server died`);
    await server.restart();
    const summary = await runOn(server, dir, 2);
    assert.equal(summary.skipped, partial.length);
    assert.deepEqual(stableLog(dir), stableLog(whole));
  } finally {
    await server.kill().catch(() => {});
  }
});

test("--parallel K keeps K requests in flight", async () => {
  let inFlight = 0;
  let most = 0;
  const server = await startFakeServer((call) => {
    inFlight++;
    most = Math.max(most, inFlight);
    setTimeout(() => inFlight--, 50);
    return { ...echoAnswer(call), delayMs: 50 };
  });
  try {
    await runOn(server, mkdtempSync(path.join(tmpdir(), "blogqa-server-run-")), 3);
    assert.equal(most, 3);
  } finally {
    await server.kill();
  }
});

function templateFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "blogqa-template-"));
  const file = path.join(dir, "template.jinja");
  writeFileSync(file, FAKE_TEMPLATE);
  return file;
}

test("a usage count that is not a whole number of tokens within the context is a call error naming it", async () => {
  const inContext = "not a whole number of tokens from 0 to the context size (4096)";
  const cases: [Record<string, unknown>, string][] = [
    [{ prompt_tokens: 1.7e308, completion_tokens: 7 }, `usage.prompt_tokens is 1.7e+308, ${inContext}`],
    [{ prompt_tokens: 1e300, completion_tokens: 7 }, `usage.prompt_tokens is 1e+300, ${inContext}`],
    [{ prompt_tokens: 12, completion_tokens: -1 }, `usage.completion_tokens is -1, ${inContext}`],
    [{ prompt_tokens: 12.5, completion_tokens: 7 }, `usage.prompt_tokens is 12.5, ${inContext}`],
    [{ prompt_tokens: 5000, completion_tokens: 7 }, `usage.prompt_tokens is 5000, ${inContext}`],
    [
      { prompt_tokens: 12, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 13 } },
      "usage.prompt_tokens_details.cached_tokens is 13, not a whole number of tokens from 0 to usage.prompt_tokens (12)",
    ],
    [
      { prompt_tokens: 12, completion_tokens: 7, prompt_tokens_details: { cached_tokens: "3" } },
      'usage.prompt_tokens_details.cached_tokens is "3", not a whole number of tokens from 0 to usage.prompt_tokens (12)',
    ],
  ];
  for (const [usage, error] of cases) {
    const answer = () => ({ json: { choices: [{ text: "abc", finish_reason: "stop" }], usage } });
    await withServer(answer, async (server) => {
      const model = await openServerModel(options(server));
      const [runtime] = await model.openRuntimes(1, { reuseCache: true });
      const generation = await runtime!.generate(REQUEST);
      assert.equal(generation.record.stopReason, "error");
      assert.equal(generation.record.tokensRead, 0);
      assert.equal((generation.record as { error: string }).error, `server: ${error}`);
    });
  }
  // Without a context size reported (no /props), counts are bounded by what a number holds exactly.
  const huge = () => ({
    json: { choices: [{ text: "abc" }], usage: { prompt_tokens: 2 ** 60, completion_tokens: 1 } },
  });
  await withServer(
    huge,
    async (server) => {
      const model = await openServerModel(options(server, { chatTemplate: templateFile() }));
      const [runtime] = await model.openRuntimes(1, { reuseCache: true });
      const generation = await runtime!.generate(REQUEST);
      assert.equal(
        (generation.record as { error: string }).error,
        "server: usage.prompt_tokens is 1152921504606847000, not a whole number of tokens (0 or more)",
      );
    },
    { props: false },
  );
});

test("a reply over the byte cap is cut there and logged as a call error, not read whole", async () => {
  const text = "x".repeat(5 * 1024 * 1024);
  const answer = () => ({
    json: null,
    raw: `{"choices": [{"text": "${text}"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}}`,
  });
  await withServer(answer, async (server) => {
    const model = await openServerModel(options(server));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate(REQUEST);
    assert.equal(server.calls.length, 1, "not retried: the same request would bring the same reply");
    assert.equal(generation.record.stopReason, "error");
    assert.equal(generation.text, "");
    assert.equal(
      (generation.record as { error: string }).error,
      "server: HTTP 200: the reply is longer than 4194304 bytes, the most read from a server",
    );
    assert.equal(model.info.server?.maxReplyBytes, 4194304);
  });
});

test("a reply longer than max_tokens' worth of text (64 bytes a token) is a call error", async () => {
  const answer = (call: { body: Record<string, unknown> }) => ({
    json: {
      choices: [{ text: "x".repeat(Number(call.body.max_tokens) * 64 + 1), finish_reason: "length" }],
      usage: { prompt_tokens: 12, completion_tokens: 50 },
    },
  });
  await withServer(answer, async (server) => {
    const model = await openServerModel(options(server));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate(REQUEST);
    assert.equal(generation.record.stopReason, "error");
    assert.equal(generation.text, "");
    assert.equal(
      (generation.record as { error: string }).error,
      "server: the reply's text is 3201 bytes, more than max_tokens (50) can make at 64 bytes a token: " +
        "the server ignored max_tokens",
    );
  });
});

test("a key or credentials a server echoes are redacted from errors, retries and logged answers", async () => {
  process.env.BLOGQA_TEST_KEY = "sk-secret-123";
  try {
    const echo = (call: { n: number; headers: Record<string, unknown> }) =>
      call.n < 3
        ? { status: 503, json: { error: { message: `overloaded for ${String(call.headers.authorization)}` } } }
        : {
            status: 401,
            json: { error: { message: `Incorrect API key provided: ${String(call.headers.authorization)}` } },
          };
    await withServer(echo, async (server) => {
      const progress: string[] = [];
      const model = await openServerModel(
        options(server, { apiKeyEnv: "BLOGQA_TEST_KEY", onProgress: (m) => progress.push(m) }),
      );
      const [runtime] = await model.openRuntimes(1, { reuseCache: true });
      const generation = await runtime!.generate(REQUEST);
      assert.equal(server.calls[0]!.headers.authorization, "Bearer sk-secret-123");
      assert.equal(
        (generation.record as { error: string }).error,
        "server: HTTP 401 (after 3 tries): Incorrect API key provided: Bearer [redacted]",
      );
      const retries = progress.filter((m) => m.includes("overloaded"));
      assert.equal(retries.length, 2);
      assert.match(retries[0]!, /: HTTP 503: overloaded for Bearer \[redacted\]; try 2 of 3 in 10 ms$/);
      assert.ok(!progress.join("\n").includes("sk-secret-123"));
    });
    // In chat mode the whole answer is logged: a key inside it (JSON-escaped or not) is redacted there too.
    const chatEcho = (call: { headers: Record<string, unknown> }) => ({
      json: {
        choices: [{ message: { role: "assistant", content: `key ${String(call.headers.authorization)}` } }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
        echoed: { headers: call.headers },
      },
    });
    await withServer(chatEcho, async (server) => {
      const model = await openServerModel(options(server, { apiKeyEnv: "BLOGQA_TEST_KEY", mode: "chat" }));
      const [runtime] = await model.openRuntimes(1, { reuseCache: true });
      const generation = await runtime!.generate(REQUEST);
      assert.equal(generation.text, "key Bearer [redacted]");
      assert.ok(!JSON.stringify(generation).includes("sk-secret-123"));
    });
  } finally {
    delete process.env.BLOGQA_TEST_KEY;
  }
});

test("a key a server echoes escaped (\\u, \\/) is redacted from an error body and a logged chat answer alike", async () => {
  const key = "sk-a/b-9";
  process.env.BLOGQA_TEST_KEY = key;
  // every spelling a JSON text allows: \u-escaped letters (either case), a slash written \/
  const spelt = ["sk\\u002da\\/b-9", "\\u0073\\u006B-a/b\\u002D9", "sk-a\\u002fb-9"];
  try {
    for (const form of spelt) {
      const unauthorized = () => ({
        status: 401,
        json: undefined,
        raw: `{"error": {"message": "bad key Bearer ${form}"}}`,
      });
      await withServer(unauthorized, async (server) => {
        const model = await openServerModel(options(server, { apiKeyEnv: "BLOGQA_TEST_KEY" }));
        const [runtime] = await model.openRuntimes(1, { reuseCache: true });
        const generation = await runtime!.generate(REQUEST);
        assert.match((generation.record as { error: string }).error, /bad key Bearer \[redacted\]$/, form);
      });
      const echo = () => ({
        json: undefined,
        raw:
          `{"choices": [{"message": {"role": "assistant", "content": "key ${form}"}}], ` +
          `"usage": {"prompt_tokens": 3, "completion_tokens": 2}, "system_fingerprint": "Bearer ${form}"}`,
      });
      await withServer(echo, async (server) => {
        const model = await openServerModel(options(server, { apiKeyEnv: "BLOGQA_TEST_KEY", mode: "chat" }));
        const [runtime] = await model.openRuntimes(1, { reuseCache: true });
        const generation = await runtime!.generate(REQUEST);
        assert.equal(generation.text, "key [redacted]", form);
        assert.ok(!JSON.stringify(generation).includes(key), form);
        assert.match(JSON.stringify(generation), /"system_fingerprint":"Bearer \[redacted\]"/, form);
      });
    }
  } finally {
    delete process.env.BLOGQA_TEST_KEY;
  }
});

test("credentials in the server URL go in a Basic Authorization header and are never recorded or printed", async () => {
  await withServer(echoAnswer, async (server) => {
    const url = server.url.replace("http://", "http://user:pw%40secret@");
    const model = await openServerModel(options(server, { url }));
    const [runtime] = await model.openRuntimes(1, { reuseCache: true });
    const generation = await runtime!.generate(REQUEST);
    assert.equal(generation.record.stopReason, "eos");
    assert.equal(server.calls[0]!.headers.authorization, `Basic ${Buffer.from("user:pw@secret").toString("base64")}`);
    assert.equal(model.info.server?.url, server.url);
    assert.ok(!JSON.stringify(model.info).includes("secret"));
  });
  const down = "http://user:pw-secret@127.0.0.1:9/v1";
  await assert.rejects(openServerModel(options({ url: down } as FakeServer)), (e: Error) => {
    assert.match(e.message, /^No OpenAI-compatible server answered at http:\/\/127\.0\.0\.1:9\/v1\/models/);
    assert.ok(!e.message.includes("pw-secret"));
    return true;
  });
  process.env.BLOGQA_TEST_KEY = "sk-secret-123";
  try {
    await assert.rejects(
      openServerModel(options({ url: down } as FakeServer, { apiKeyEnv: "BLOGQA_TEST_KEY" })),
      (e: Error) =>
        e instanceof UserError &&
        e.message ===
          "--server http://user:[redacted]@127.0.0.1:9/v1 carries credentials and --api-key-env gives a key: " +
            "a request has one Authorization header: give one or the other",
    );
  } finally {
    delete process.env.BLOGQA_TEST_KEY;
  }
});
