// Runs the real CLI in a child process, as a user would through npm run -s blogqa.
import { spawnSync } from "node:child_process";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): CliResult {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "src/cli.ts"), ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 600_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
