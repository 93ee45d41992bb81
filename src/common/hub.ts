// Where the Hugging Face hub is and the token it takes, read from the environment as node-llama-cpp's downloader
// reads them, so that every request blogqa makes to the hub goes to one place with one token.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { environment } from "./environment.ts";

/**
 * The hub's address without a trailing slash: $MODEL_ENDPOINT, else $HF_ENDPOINT (a mirror behind a firewall), else
 * huggingface.co; node-llama-cpp's downloader takes the same order, so GGUF files and configs come from one place.
 */
export function hubEndpoint(): string {
  const set = (name: string) => {
    const value = environment()[name];
    return value !== undefined && /^https?:\/\//.test(value) ? value : undefined;
  };
  return (set("MODEL_ENDPOINT") ?? set("HF_ENDPOINT") ?? "https://huggingface.co").replace(/\/+$/, "");
}

/**
 * The token for gated repositories: $HF_TOKEN, else the file at $HF_TOKEN_PATH (default $HF_HOME/token, HF_HOME
 * defaulting to ~/.cache/huggingface), as Hugging Face's clients and node-llama-cpp read it. Never printed.
 */
export function hubToken(): string | undefined {
  const env = environment();
  const fromEnv = env.HF_TOKEN;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const home = env.HF_HOME ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "huggingface");
  try {
    const token = readFileSync(env.HF_TOKEN_PATH ?? path.join(home, "token"), "utf8").trim();
    return token === "" ? undefined : token;
  } catch {
    return undefined;
  }
}

/** The headers of a request to the hub: the token as a Bearer header, when there is one. */
export function hubHeaders(): Record<string, string> {
  const token = hubToken();
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}
