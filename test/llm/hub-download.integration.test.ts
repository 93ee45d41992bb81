// Downloads from a stand-in hub that answers as the real one: a signed CDN URL that expires mid-download, a cut
// connection and a rerun that fetches only the missing bytes, a process killed mid-file, a gated repository, a 429,
// a model given by URL, missing repositories and files, and a config file's revision when the hub names no commit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UserError } from "../../src/common/index.ts";
import { resolveModelFiles } from "../../src/llm/model-files.ts";
import { partialPath } from "../../src/llm/hub-download.ts";
import { hubFile, UNKNOWN_REVISION } from "../../src/llm/hub-config.ts";
import { startStandInHub, type StandInHubOptions } from "../helpers/stand-in-hub.ts";
import { repoRoot } from "../helpers/run-cli.ts";

type StandInHub = Awaited<ReturnType<typeof startStandInHub>>;

const REPO = "Qwen/Qwen2.5-1.5B-Instruct-GGUF";
const FILE = "qwen2.5-1.5b-instruct-q8_0.gguf";
const ID = `hf:${REPO}/${FILE}`;
const KEY = `${REPO}/${FILE}`;
/** 24 MB: five of ipull's 5 MB chunks, so that a download spans several requests. */
const BYTES = randomBytes(24_000_000);
const TOKEN = `hf_${"q".repeat(30)}`;

/** Runs `body` with HF_ENDPOINT at a stand-in hub serving the file, HF_TOKEN as given, and an empty cache. */
async function withHub(
  options: StandInHubOptions,
  token: string | undefined,
  body: (hub: StandInHub, cacheDir: string) => Promise<void>,
) {
  const hub = await startStandInHub([{ repo: REPO, revision: "main", file: FILE, bytes: BYTES }], options);
  const saved = { ...process.env };
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-download-"));
  process.env.HF_ENDPOINT = hub.url;
  process.env.HF_TOKEN_PATH = path.join(cacheDir, "no-token-file");
  if (token === undefined) delete process.env.HF_TOKEN;
  else process.env.HF_TOKEN = token;
  try {
    await body(hub, cacheDir);
  } finally {
    process.env = saved;
    await hub.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

const local = (cacheDir: string) => path.join(cacheDir, "models", `hf_Qwen_${FILE}`);

/** Bytes a partial file's ipull progress marks as complete (its chunks, appended as JSON after the file's bytes). */
function keptBytes(partial: string, size: number): number {
  const progress = JSON.parse(fs.readFileSync(partial).subarray(size).toString("utf8")) as {
    chunks: number[];
    chunkSize: number;
  };
  return progress.chunks.reduce(
    (sum, status, i) => sum + (status === 2 ? Math.min(progress.chunkSize, size - i * progress.chunkSize) : 0),
    0,
  );
}

function assertNoQuery(lines: readonly string[]) {
  for (const line of lines) assert.doesNotMatch(line, /Signature|Expires=|\?/, `a query string shown: ${line}`);
}

/** Heals the hub and downloads again: the rerun must fetch exactly the bytes not `kept` on disk, and say so. */
async function rerunFetchesTheRest(hub: StandInHub, cacheDir: string, kept: number): Promise<string[]> {
  hub.heal();
  const servedBefore = hub.cdnBytes.get(KEY) ?? 0;
  const lines: string[] = [];
  const files = await resolveModelFiles(ID, { cacheDir, onProgress: (m) => lines.push(m) });
  const served = (hub.cdnBytes.get(KEY) ?? 0) - servedBefore;
  assert.equal(served, BYTES.length - kept, "the rerun fetched exactly the bytes not on disk");
  assert.ok(
    lines.includes(`${FILE}: resuming from ${(kept / 1e6).toFixed(1)} MB of 24.0 MB on disk`),
    lines.join("\n"),
  );
  assert.ok(fs.readFileSync(files.path).equals(BYTES));
  return lines;
}

test("a signed URL that expires mid-download: a fresh /resolve, the download goes on, the file is checked", async () => {
  await withHub({ signedUrlUses: 3 }, TOKEN, async (hub, cacheDir) => {
    const lines: string[] = [];
    const files = await resolveModelFiles(ID, { cacheDir, onProgress: (m) => lines.push(m) });
    assert.ok(fs.readFileSync(files.path).equals(BYTES), "the file holds what the hub served");
    const resolves = hub.requests.filter((r) => r.includes("/resolve/"));
    const refused = hub.cdnRequests.filter((r) => r.status === 403);
    assert.ok(refused.length >= 1, `the CDN refused an expired URL: ${JSON.stringify(hub.cdnRequests)}`);
    assert.ok(resolves.length >= 2, resolves.join("\n"));
    const retries = lines.filter((l) => l.includes("asking the hub for a fresh URL"));
    assert.equal(retries.length, resolves.length - 1, lines.join("\n"));
    assert.match(retries[0]!, /HTTP 403, as when a signed URL has expired\) at [\d.]+ MB of 24\.0 MB; asking/);
    assert.ok(lines.includes(`${FILE}: 24.0 MB, sha256 checked against the hub's`), lines.join("\n"));
    // Ranges under way when the 403 came are dropped by the downloader and fetched again: at least every byte once.
    const served = hub.cdnBytes.get(KEY) ?? 0;
    assert.ok(served >= BYTES.length);
    console.log(
      `# ${refused.length} expired URL(s), ${resolves.length} resolves, ${served} bytes served for ${BYTES.length}`,
    );
    assert.ok(
      hub.cdnRequests.every((r) => !r.authorized),
      "the token never goes to the CDN",
    );
    assert.ok(!fs.existsSync(partialPath(files.path)) && !fs.existsSync(`${files.path}.download.json`));
    assertNoQuery(lines);
    for (const line of lines) assert.ok(!line.includes(TOKEN));
  });
});

test("a cut connection that stays down: the partial file is kept, and the rerun fetches only the missing bytes", async () => {
  await withHub({}, undefined, async (hub, cacheDir) => {
    hub.cut(KEY, 18_000_000, { stayDown: true });
    const first: string[] = [];
    await assert.rejects(resolveModelFiles(ID, { cacheDir, onProgress: (m) => first.push(m) }), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.doesNotMatch(e.message, /\n/);
      assert.match(
        e.message,
        /the connection was cut .* 3 tries in a row with no progress\. The partial file .* is kept/,
      );
      assertNoQuery([e.message]);
      return true;
    });
    // One retry after the cut (bytes were added before it), then two more that add none; the third such try ends it.
    const retries = first.filter((l) => l.includes("asking the hub for a fresh URL"));
    assert.equal(retries.length, 3, first.join("\n"));
    assert.match(
      retries[2]!,
      /waiting 2 s, then asking the hub for a fresh URL and resuming \(retry 3, 2 of 2 without progress\)$/,
    );
    const partial = partialPath(local(cacheDir));
    const kept = keptBytes(partial, BYTES.length);
    assert.ok(kept >= 5_000_000 && kept <= 18_000_000, `whole chunks kept on disk: ${kept}`);

    const second = await rerunFetchesTheRest(hub, cacheDir, kept);
    assertNoQuery([...first, ...second]);
    console.log(
      `# cut at 18,000,000 bytes; kept ${kept} on disk; rerun fetched ${BYTES.length - kept} of ${BYTES.length}`,
    );
  });
});

test("a download killed mid-file keeps its chunks, and the rerun fetches only the rest", async () => {
  await withHub({}, undefined, async (hub, cacheDir) => {
    // The cut makes sure the killed process could not have finished before the kill lands, however late that is.
    hub.cut(KEY, 22_000_000, { stayDown: true });
    const modelFiles = pathToFileURL(path.join(repoRoot, "src/llm/model-files.ts")).href;
    const child = spawn(
      process.execPath,
      [
        ...["--import", "tsx", "--input-type=module", "-e"],
        `import { resolveModelFiles } from ${JSON.stringify(modelFiles)};
         await resolveModelFiles(${JSON.stringify(ID)}, { cacheDir: ${JSON.stringify(cacheDir)} });`,
      ],
      { env: { ...process.env }, stdio: "ignore" },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // ipull writes a 5 MB chunk once it is whole, three under way at a time: past 17 MB, some are on disk.
    while ((hub.cdnBytes.get(KEY) ?? 0) < 17_000_000) await new Promise((r) => setTimeout(r, 10));
    child.kill("SIGKILL"); // as a crash or a closed laptop: nothing runs after it
    await exited;
    const partial = partialPath(local(cacheDir));
    const kept = keptBytes(partial, BYTES.length);
    assert.ok(kept >= 5_000_000 && kept <= 22_000_000, `whole chunks kept on disk: ${kept}`);

    const servedBefore = hub.cdnBytes.get(KEY) ?? 0;
    await rerunFetchesTheRest(hub, cacheDir, kept);
    console.log(
      `# killed after ${servedBefore} bytes served; kept ${kept} on disk; rerun fetched ${BYTES.length - kept}`,
    );
  });
});

test("a gated repository: one line without HF_TOKEN, the file with it, and the token written nowhere", async () => {
  const gated = { repos: [REPO], token: TOKEN };
  await withHub({ gated }, undefined, async (_hub, cacheDir) => {
    await assert.rejects(resolveModelFiles(ID, { cacheDir }), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.equal(
        e.message,
        `Could not download model ${ID}: ${REPO} is a gated repository: accept its terms at ` +
          `${process.env.HF_ENDPOINT}/${REPO} and set HF_TOKEN to a token of that account, then run again`,
      );
      return true;
    });
  });
  await withHub({ gated }, "hf_wrong", async (_hub, cacheDir) => {
    await assert.rejects(resolveModelFiles(ID, { cacheDir }), /the token in HF_TOKEN has no access/);
  });
  await withHub({ gated }, TOKEN, async (hub, cacheDir) => {
    const lines: string[] = [];
    const files = await resolveModelFiles(ID, { cacheDir, onProgress: (m) => lines.push(m) });
    assert.ok(fs.readFileSync(files.path).equals(BYTES));
    assert.ok(
      hub.cdnRequests.every((r) => !r.authorized),
      "the token never goes to the CDN",
    );
    for (const line of lines) assert.ok(!line.includes(TOKEN));
    for (const entry of fs.readdirSync(cacheDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const text = fs.readFileSync(path.join(entry.parentPath, entry.name)).toString("latin1");
      assert.ok(!text.includes(TOKEN), `the token is in ${entry.name}`);
    }
  });
});

test("a 429 is waited out as its Retry-After says, in one line, then the download goes on", async () => {
  await withHub({ rateLimit: { count: 1, seconds: 1 } }, undefined, async (_hub, cacheDir) => {
    const lines: string[] = [];
    const files = await resolveModelFiles(ID, { cacheDir, onProgress: (m) => lines.push(m) });
    assert.ok(fs.readFileSync(files.path).equals(BYTES));
    assert.deepEqual(
      lines.filter((l) => l.includes("fresh URL")),
      [
        `${FILE}: the hub answered HTTP 429 for ${REPO}'s ${FILE} at main; waiting 1 s, then asking the hub for a ` +
          "fresh URL and resuming (retry 1, 1 of 2 without progress)",
      ],
    );
  });
});

test("a model given by URL (node-llama-cpp's downloader): no progress line twice, no query string", async () => {
  await withHub({}, undefined, async (hub, cacheDir) => {
    const lines: string[] = [];
    const url = `${hub.url}/${REPO}/resolve/main/${FILE}?download=true`;
    const files = await resolveModelFiles(url, { cacheDir, onProgress: (m) => lines.push(m) });
    assert.ok(fs.readFileSync(files.path).equals(BYTES));
    const progress = lines.filter((l) => l.includes("%)"));
    // The downloader reports hundreds of times for these 24 MB, and 100% over and over: a line every 2 s, and the end.
    assert.ok(progress.length >= 1 && progress.length <= 4, lines.join("\n"));
    assert.equal(new Set(lines).size, lines.length, lines.join("\n"));
    assert.equal(progress.at(-1), `downloading ${hub.url}/${REPO}/resolve/main/${FILE}: 0.02 / 0.02 GB (100.0%)`);
    assertNoQuery(lines);
  });
});

test("a repository or a file the hub does not have is one line", async () => {
  await withHub({}, undefined, async (_hub, cacheDir) => {
    await assert.rejects(
      resolveModelFiles("hf:Nobody/Nothing-GGUF/nothing-q8_0.gguf", { cacheDir }),
      /: the hub has no repository Nobody\/Nothing-GGUF \(HTTP 401 RepoNotFound; a private one needs HF_TOKEN\)$/,
    );
    await assert.rejects(
      resolveModelFiles(`hf:${REPO}/other-q8_0.gguf`, { cacheDir }),
      /: the hub has no Qwen\/Qwen2\.5-1\.5B-Instruct-GGUF's other-q8_0\.gguf at main \(HTTP 404 EntryNotFound\)$/,
    );
  });
});

test("a config file's revision: the commit the hub names on its 307, or unknown from a mirror, never the branch", async () => {
  const commit = "c".repeat(40);
  const repo = "Qwen/Qwen2.5-0.5B-Instruct";
  const files = [{ repo, revision: commit, file: "tokenizer_config.json", bytes: Buffer.from("{}\n") }];
  for (const plainMirror of [false, true]) {
    const hub = await startStandInHub(files, { plainMirror });
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), "blogqa-config-"));
    try {
      const said: string[] = [];
      const request = { repo, revision: undefined, endpoint: hub.url };
      const fetched = await hubFile(modelsDir, request, "tokenizer_config.json", "offline", (m) => said.push(m));
      assert.equal(fs.readFileSync(fetched.path, "utf8"), "{}\n");
      assert.equal(fetched.hub?.revision, plainMirror ? UNKNOWN_REVISION : commit);
      assert.deepEqual(hub.requests, [
        `GET /${repo}/resolve/main/tokenizer_config.json`,
        ...(plainMirror ? [] : [`GET /api/resolve-cache/models/${repo}/${commit}/tokenizer_config.json`]),
      ]);
      if (plainMirror) assert.match(said.join("\n"), /the hub named no commit, so its revision is recorded as unknown/);
    } finally {
      await hub.close();
      fs.rmSync(modelsDir, { recursive: true, force: true });
    }
  }
});
