// llama-server as scripts/build-llama-server.sh leaves it (built from node-llama-cpp's own llama.cpp source), started
// on a test model with a chat template file, for tests that compare prompts with its /apply-template.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { bundleHead, llamaCppBundlePath } from "../../src/test-models/gguf/qwen25-template.ts";

/** The built binary's folder, or undefined when scripts/build-llama-server.sh has not been run here. */
export function llamaServerDir(): string | undefined {
  const cache =
    process.env.BLOGQA_LLAMA_SERVER_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "blogqa", "llama-server");
  const dir = path.join(cache, bundleHead(llamaCppBundlePath()).commit);
  return fs.existsSync(path.join(dir, "llama-server")) && fs.existsSync(path.join(dir, ".complete")) ? dir : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface RunningServer {
  readonly url: string;
  stop(): void;
}

/** Starts llama-server with Jinja on `model` and `templateFile`, and waits for /health. */
export async function startLlamaServer(dir: string, model: string, templateFile: string): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.join(dir, "llama-server"),
    ["-m", model, "--host", "127.0.0.1", "--port", String(port), "-c", "2048", "-np", "1", "-t", "1", "--jinja"].concat(
      ["--chat-template-file", templateFile],
    ),
    { env: { ...process.env, LD_LIBRARY_PATH: dir }, stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = () => child.kill();
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`llama-server did not answer /health on ${url} within 10 s`);
}
