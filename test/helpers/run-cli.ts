// Runs the real CLI in a child process, as a user would through npm run -s blogqa.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): CliResult {
  const result = spawnSync(process.execPath, [path.join(repoRoot, "bin/blogqa.cjs"), ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    input: options.input ?? "",
    encoding: "utf8",
    timeout: options.timeoutMs ?? 600_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** runCli without blocking this process (a server it runs must keep answering): resolves when the CLI exits. */
export function runCliAsync(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "bin/blogqa.cjs"), ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
