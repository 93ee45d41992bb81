// A small OpenAI-compatible server on 127.0.0.1 for the server backend's tests: /v1/models, llama-server's /props,
// and /v1/completions and /v1/chat/completions answered by a handler the test gives, which may delay, fail or answer.
// It can be killed (open connections cut) and started again on the same port.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface CompletionCall {
  /** "/v1/completions" or "/v1/chat/completions". */
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly headers: http.IncomingHttpHeaders;
  /** 1 for the first completion request (of either path) the server got, counting across restarts. */
  readonly n: number;
}

/** What the handler answers: a JSON body with a status (default 200), optionally after a delay. */
export interface FakeAnswer {
  readonly status?: number;
  readonly json: unknown;
  readonly delayMs?: number;
  /** Sent as the body instead of `json`, byte for byte (for replies no server should send). */
  readonly raw?: string;
}

export interface FakeServer {
  readonly url: string;
  readonly calls: CompletionCall[];
  kill(): Promise<void>;
  restart(): Promise<void>;
}

/** The Qwen-style template llama-server would report at /props. */
export const FAKE_TEMPLATE =
  "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}" +
  "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

/** A deterministic reply: the same prompt always gives the same text, like greedy decoding. */
export function echoAnswer(call: CompletionCall): FakeAnswer {
  const prompt = String(call.body.prompt);
  const words = prompt.length;
  return {
    json: {
      choices: [
        { index: 0, text: `Reply to ${words} characters. Source: flashattention-explained`, finish_reason: "stop" },
      ],
      usage: { prompt_tokens: words, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 3 } },
    },
  };
}

export async function startFakeServer(
  answer: (call: CompletionCall) => FakeAnswer = echoAnswer,
  options: { props?: boolean; modelId?: string } = {},
): Promise<FakeServer> {
  const calls: CompletionCall[] = [];
  const sockets = new Set<Socket>();
  const send = (res: http.ServerResponse, status: number, json: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(json));
  };
  const handler: http.RequestListener = (req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      if (req.url === "/v1/models")
        return send(res, 200, { object: "list", data: [{ id: options.modelId ?? "tiny", object: "model" }] });
      if (req.url === "/props" && options.props !== false)
        return send(res, 200, {
          default_generation_settings: { n_ctx: 4096 },
          total_slots: 1,
          chat_template: FAKE_TEMPLATE,
          bos_token: "<|endoftext|>",
          eos_token: "<|im_end|>",
          build_info: "b0000-fake",
        });
      const path = req.url ?? "";
      if (!["/v1/completions", "/v1/chat/completions"].includes(path) || req.method !== "POST")
        return send(res, 404, { error: "not found" });
      const call = {
        path,
        body: JSON.parse(text) as Record<string, unknown>,
        headers: req.headers,
        n: calls.length + 1,
      };
      calls.push(call);
      const reply = answer(call);
      const respond = () =>
        reply.raw === undefined
          ? send(res, reply.status ?? 200, reply.json)
          : res.writeHead(reply.status ?? 200, { "content-type": "application/json" }).end(reply.raw);
      if (reply.delayMs === undefined) respond();
      else {
        const timer = setTimeout(respond, reply.delayMs);
        res.on("close", () => clearTimeout(timer));
      }
    });
  };
  let server = http.createServer(handler);
  const listen = (port: number) =>
    new Promise<void>((resolve) => {
      server.on("connection", (s) => {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    async kill() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restart() {
      server = http.createServer(handler);
      await listen(port);
    },
  };
}
