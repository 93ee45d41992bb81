// SIGTERM and SIGINT end a command at once, wherever it is (a post being parsed, a run holding its folder's lock).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";
import { HOSTILE_POSTS } from "../helpers/hostile-posts.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";

const tempFolder = tempFolders("blogqa-signals");

function start(args: readonly string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [path.join(repoRoot, "bin/blogqa.cjs"), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  return { child, stderr: () => stderr };
}

async function until(what: string, done: () => boolean, child: ChildProcess): Promise<void> {
  while (!done()) {
    if (child.exitCode !== null) assert.fail(`the command ended (status ${child.exitCode}) before ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends `signal` and waits for the exit: its status, signal and the seconds it took. */
async function stop(child: ChildProcess, signal: NodeJS.Signals) {
  const sent = Date.now();
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("exit", (code, sig) => resolve([code, sig])),
  );
  child.kill(signal);
  const [code, sig] = await exited;
  return { code, sig, seconds: (Date.now() - sent) / 1000 };
}

test("SIGTERM while posts are parsed ends sections at once with status 143 and one line", async () => {
  const dir = tempFolder("slow-blog");
  const stars = HOSTILE_POSTS.find((p) => p.name === "stars.mdx")!.body();
  // Twenty posts of 6.4 s each: the parse outlasts the test by far unless the signal ends it.
  for (let i = 0; i < 20; i++) writeFileSync(path.join(dir, `stars-${i}.mdx`), stars);
  // NODE_DEBUG=worker has Node say when the parse worker is made (its entry's code is printed): the parse is then
  // under way, in a thread of its own.
  const { child, stderr } = start(["sections", "--content", dir], { NODE_DEBUG: "worker" });
  await until("the parse worker started", () => stderr().includes("workerData.module"), child);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const { code, sig, seconds } = await stop(child, "SIGTERM");
  assert.deepEqual([code, sig], [143, null], stderr());
  assert.ok(stderr().endsWith("\nblogqa: stopped by SIGTERM\n"), stderr());
  assert.doesNotMatch(stderr(), /^\s+at /m);
  // Not a timing test: a bound that a command still parsing (minutes) would miss.
  assert.ok(seconds < 30, `took ${seconds} s`);
});

test("SIGINT during a run ends it with status 130, releases the folder's lock, and the run resumes", async () => {
  const model = await tinyModelPath();
  const out = tempFolder("run");
  const args = ["run", "--model", model, "--retriever", "bm25", "--max-new-tokens", "24", "--threads", "1"];
  const { child, stderr } = start([...args, "--limit", "4", "--out", out]);
  const answers = path.join(out, "answers.jsonl");
  await until("a run was logged", () => existsSync(answers) && readFileSync(answers, "utf8").includes("\n"), child);
  assert.ok(existsSync(path.join(out, ".lock")), "the run holds its lock");
  const { code, sig, seconds } = await stop(child, "SIGINT");
  assert.deepEqual([code, sig], [130, null], stderr());
  assert.ok(stderr().endsWith("blogqa: stopped by SIGINT\n"), stderr());
  assert.match(stderr(), /\ninterrupted: the \d+ runs? logged in .+ are kept; go on from them with: npx blogqa run /);
  assert.doesNotMatch(stderr(), /^\s+at /m);
  assert.equal(existsSync(path.join(out, ".lock")), false, "the lock is released");
  assert.ok(seconds < 30, `took ${seconds} s`);
  const resumed = start([...args, "--limit", "4", "--out", out]);
  const status = await new Promise<number | null>((resolve) => resumed.child.once("exit", resolve));
  assert.equal(status, 0, resumed.stderr());
  assert.match(resumed.stderr(), /runs to do \(\d+ already done\)/);
  assert.doesNotMatch(resumed.stderr(), /took over a lock/);
});
