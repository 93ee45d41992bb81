// A real llama-server for the integration tests: the one scripts/build-llama-server.sh built from node-llama-cpp's own
// llama.cpp, started on 127.0.0.1 with a free port and a model, waited for at /health, stopped whatever happens.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { bundleHead, llamaCppBundlePath } from "../../src/test-models/gguf/qwen25-template.ts";

/** The folder the build script fills for this checkout's llama.cpp commit (binary and shared libraries). */
function buildDir(): string {
  const cache =
    process.env.BLOGQA_LLAMA_SERVER_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "blogqa", "llama-server");
  return path.join(cache, bundleHead(llamaCppBundlePath()).commit);
}

/** The built binary's folder, or undefined when scripts/build-llama-server.sh has not been run here. */
export function llamaServerDir(): string | undefined {
  const dir = buildDir();
  return existsSync(path.join(dir, "llama-server")) && existsSync(path.join(dir, ".complete")) ? dir : undefined;
}

/**
 * Why the llama-server tests cannot run here, or undefined when they can. With BLOGQA_REQUIRE_SERVER=1 (CI, after
 * the build script) a missing binary is an error, not a skip.
 */
export function llamaServerMissing(): string | undefined {
  if (llamaServerDir() !== undefined) return undefined;
  const why = `no llama-server in ${buildDir()}: run scripts/build-llama-server.sh (about 15 minutes on 2 idle cores) to test against it`;
  if (process.env.BLOGQA_REQUIRE_SERVER === "1") throw new Error(`BLOGQA_REQUIRE_SERVER=1 but ${why}`);
  return why;
}

/**
 * Server options that make the random tiny model write tool calls in chat mode: llama-server's logit biases
 * (`-l TOKEN+BIAS`, applied to every request that sets no logit_bias of its own) on <tool_call> (151657) +30, "\n"
 * (198) +36 and '"' (1) +12. The first token is then <tool_call> followed by "\n", which opens the call the server's
 * grammar holds to the tool schemas, and the quotes close its strings; later turns call again or write text.
 */
export const TOOL_CALL_BIASES: readonly string[] = ["-l", "151657+30", "-l", "198+36", "-l", "1+12"];

export interface RunningServer {
  /** The OpenAI-compatible base URL, http://127.0.0.1:<port>/v1. */
  readonly url: string;
  /** The server's root, http://127.0.0.1:<port> (/health, /props, /apply-template). */
  readonly rootUrl: string;
  readonly port: number;
  /** Its log so far (stdout and stderr). */
  log(): string;
  /** Kills it (SIGKILL: as a crash would) and waits for it to exit. */
  kill(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits. Safe to call twice. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// Whatever happens to the test process, its servers go with it.
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** A free TCP port on 127.0.0.1 (the OS picks it; a race with another process is possible but unlikely). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts llama-server on `model`: one slot, the context and threads of the in-process runtime (4096 tokens, one
 * thread for the tiny model), flash attention off as there, no host-memory prompt cache (a slot's own KV cache only).
 * `port` reuses a port (to restart a killed server where a run expects it); `extraArgs` come last and win
 * (e.g. `["--jinja", "--chat-template-file", FILE]`).
 */
export async function startLlamaServer(
  model: string,
  options: { port?: number; extraArgs?: readonly string[]; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const dir = llamaServerDir();
  if (dir === undefined) throw new Error(llamaServerMissing());
  const port = options.port ?? (await freePort());
  const args = [
    ...["-m", model, "--host", "127.0.0.1", "--port", String(port)],
    ...["-np", "1", "-c", "4096", "-t", "1", "-fa", "off", "--cache-ram", "0", "--no-webui"],
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(path.join(dir, "llama-server"), args, {
    env: { ...process.env, LD_LIBRARY_PATH: [dir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(":") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let log = "";
  child.stdout!.on("data", (d: Buffer) => (log += d.toString("utf8")));
  child.stderr!.on("data", (d: Buffer) => (log += d.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(child));
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  const server: RunningServer = {
    url: `http://127.0.0.1:${port}/v1`,
    rootUrl: `http://127.0.0.1:${port}`,
    port,
    log: () => log,
    kill: () => stopWith("SIGKILL"),
    stop: () => stopWith("SIGTERM"),
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`llama-server exited before it was ready:\n${log.slice(-2000)}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return server;
      if (Date.now() > deadline)
        throw new Error(`llama-server was not ready within the time given:\n${log.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
}
