// generation_config.json: parsing, the decoding each --repetition-penalty setting gives, and the hub fetch of the
// default models' configs, served here by a local HTTP server standing in for the hub.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { UserError } from "../../src/common/errors.ts";
import { decodingFor, parseRepetitionPenalty, readGenerationConfig } from "../../src/llm/generation-config.ts";
import { hubConfigDir, hubGenerationConfig } from "../../src/llm/hub-config.ts";
import { originalRepoOf } from "../../src/llm/model-files.ts";
import { resolveDecoding } from "../../src/llm/resolve-decoding.ts";

const dirs: string[] = [];
const temporary = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "generation-config-"));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const QWEN_LIKE = {
  bos_token_id: 151643,
  do_sample: true,
  eos_token_id: [151645, 151643],
  repetition_penalty: 1.1,
  temperature: 0.7,
};

function writeConfig(value: unknown): string {
  const file = path.join(temporary(), "generation_config.json");
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

test("--repetition-penalty takes auto, none or a positive number", () => {
  assert.equal(parseRepetitionPenalty("auto"), "auto");
  assert.equal(parseRepetitionPenalty("none"), "none");
  assert.equal(parseRepetitionPenalty("1.05"), 1.05);
  for (const bad of ["0", "-1.1", "x", "", "Infinity"])
    assert.throws(() => parseRepetitionPenalty(bad), UserError, bad);
});

test("a generation config is read with its sha256; a bad one is one error naming the file", () => {
  const file = writeConfig(QWEN_LIKE);
  const config = readGenerationConfig(file);
  assert.equal(config.repetitionPenalty, 1.1);
  assert.deepEqual(config.eosTokenIds, [151645, 151643]);
  assert.equal(config.sha256.length, 64);
  assert.equal(config.hub, null);
  assert.deepEqual(readGenerationConfig(writeConfig({ eos_token_id: 7 })).eosTokenIds, [7]);
  assert.equal(readGenerationConfig(writeConfig({})).repetitionPenalty, undefined);
  for (const bad of [
    "{",
    "[1]",
    { repetition_penalty: "1.1" },
    { repetition_penalty: 0 },
    { eos_token_id: [] },
    { eos_token_id: ["x"] },
  ]) {
    const badFile = writeConfig(bad);
    assert.throws(
      () => readGenerationConfig(badFile),
      (e: Error) => e instanceof UserError && e.message.includes(badFile) && !e.message.includes("\n"),
    );
  }
  assert.throws(
    () => readGenerationConfig(path.join(temporary(), "missing.json")),
    /cannot read the generation config .*ENOENT/,
  );
});

test("each setting's decoding: auto takes the config's penalty and end tokens; none reads nothing", () => {
  const config = readGenerationConfig(writeConfig(QWEN_LIKE));
  const auto = decodingFor("auto", config, "m.gguf");
  assert.equal(auto.repetitionPenalty, 1.1);
  assert.deepEqual(auto.stopTokens, [151645, 151643]);
  assert.equal(auto.generationConfig?.sha256, config.sha256);
  assert.match(auto.note, /repetition penalty 1\.1 from the generation config/);
  assert.equal(decodingFor("auto", null, "m.gguf").repetitionPenalty, null);
  assert.match(
    decodingFor("auto", null, "m.gguf").note,
    /no generation_config\.json beside m\.gguf or given: no repetition penalty/,
  );
  const unset = decodingFor("auto", readGenerationConfig(writeConfig({ eos_token_id: 5 })), "m.gguf");
  assert.equal(unset.repetitionPenalty, null);
  assert.deepEqual(unset.stopTokens, [5]);
  assert.equal(decodingFor(1.3, config, "m.gguf").repetitionPenalty, 1.3);
  assert.equal(decodingFor(1, config, "m.gguf").repetitionPenalty, null, "a penalty of 1 is none");
  assert.equal(decodingFor(1.3, null, "m.gguf").stopTokens, null);
  const none = decodingFor("none", config, "m.gguf");
  assert.deepEqual([none.repetitionPenalty, none.generationConfig, none.stopTokens], [null, null, null]);
});

/** A stand-in for the hub: serves one repository's generation_config.json and names its commit, as the hub does. */
async function fakeHub(
  body: string,
  commit: string,
  status = 200,
): Promise<{ url: string; requests: string[]; authorizations: (string | undefined)[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    authorizations.push(req.headers.authorization);
    if (!/^\/[^/]+\/[^/]+\/resolve\/[^/]+\/generation_config\.json$/.test(req.url ?? "")) {
      res.writeHead(404).end("Entry not found");
      return;
    }
    res.writeHead(status, { "content-type": "application/json", "x-repo-commit": commit }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("an unpinned repository's config is fetched once, at the commit the hub names, then read from the cache", async () => {
  const body = JSON.stringify(QWEN_LIKE);
  const hub = await fakeHub(body, "c".repeat(40));
  const models = temporary();
  const request = { repo: "Qwen/Qwen2.5-3B-Instruct", revision: undefined, endpoint: hub.url };
  const first = await hubGenerationConfig(models, request);
  await hub.close();
  assert.deepEqual(hub.requests, ["/Qwen/Qwen2.5-3B-Instruct/resolve/main/generation_config.json"]);
  assert.deepEqual(first.hub, { repo: "Qwen/Qwen2.5-3B-Instruct", revision: "c".repeat(40) });
  assert.equal(first.path, path.join(hubConfigDir(models, "Qwen/Qwen2.5-3B-Instruct"), "generation_config.json"));
  assert.equal(fs.readFileSync(first.path, "utf8"), body);
  // the server is gone: the cached copy answers, with the revision of its first fetch
  const again = await hubGenerationConfig(models, request);
  assert.deepEqual(again, first);
});

test("a pinned revision is what is fetched and recorded; a cached copy of another revision is fetched again", async () => {
  const pinned = "989aa7980e4cf806f80c7fef2b1adb7bc71aa306";
  const hub = await fakeHub(JSON.stringify(QWEN_LIKE), "f".repeat(40));
  try {
    const models = temporary();
    const old = await hubGenerationConfig(models, {
      repo: "Qwen/Qwen2.5-1.5B-Instruct",
      revision: "a".repeat(40),
      endpoint: hub.url,
    });
    assert.equal(old.hub?.revision, "a".repeat(40));
    const config = await hubGenerationConfig(models, {
      repo: "Qwen/Qwen2.5-1.5B-Instruct",
      revision: pinned,
      endpoint: hub.url,
    });
    assert.equal(config.hub?.revision, pinned);
    assert.deepEqual(hub.requests, [
      `/Qwen/Qwen2.5-1.5B-Instruct/resolve/${"a".repeat(40)}/generation_config.json`,
      `/Qwen/Qwen2.5-1.5B-Instruct/resolve/${pinned}/generation_config.json`,
    ]);
  } finally {
    await hub.close();
  }
});

test("a default model's config comes from its original repository; offline, auto stops with one line and a number goes on", async () => {
  const hub = await fakeHub(JSON.stringify(QWEN_LIKE), "d".repeat(40));
  const cacheDir = temporary();
  const id = "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-fp16.gguf";
  const modelPath = path.join(cacheDir, "models", "hf_Qwen_qwen2.5-1.5b-instruct-fp16.gguf");
  try {
    const decoding = await resolveDecoding(id, modelPath, { setting: "auto", cacheDir, hubEndpoint: hub.url });
    assert.equal(decoding.repetitionPenalty, 1.1);
    assert.deepEqual(decoding.generationConfig?.hub, {
      repo: "Qwen/Qwen2.5-1.5B-Instruct",
      revision: "989aa7980e4cf806f80c7fef2b1adb7bc71aa306",
    });
    assert.deepEqual(hub.requests, [
      "/Qwen/Qwen2.5-1.5B-Instruct/resolve/989aa7980e4cf806f80c7fef2b1adb7bc71aa306/generation_config.json",
    ]);
  } finally {
    await hub.close();
  }
  // nothing cached for the 3B and the hub gone
  const offline = { cacheDir, hubEndpoint: hub.url };
  const id3b = "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-fp16-00001-of-00002.gguf";
  const file3b = path.join(cacheDir, "models", "x.gguf");
  await assert.rejects(resolveDecoding(id3b, file3b, { ...offline, setting: "auto" }), (e: Error) => {
    assert.ok(e instanceof UserError);
    assert.match(e.message, /cannot fetch .*Qwen2\.5-3B-Instruct.*--generation-config FILE.*--repetition-penalty none/);
    assert.ok(
      e.message.includes(
        path.join(hubConfigDir(path.join(cacheDir, "models"), "Qwen/Qwen2.5-3B-Instruct"), "generation_config.json"),
      ),
    );
    return true;
  });
  const said: string[] = [];
  const fixed = await resolveDecoding(id3b, file3b, { ...offline, setting: 1.2, onProgress: (m) => said.push(m) });
  assert.deepEqual([fixed.repetitionPenalty, fixed.generationConfig, fixed.stopTokens], [1.2, null, null]);
  assert.equal(said.length, 1);
  assert.equal((await resolveDecoding(id3b, file3b, { ...offline, setting: "none" })).repetitionPenalty, null);
  // --generation-config wins over everything, for any model
  const given = writeConfig({ repetition_penalty: 1.05 });
  assert.equal(
    (await resolveDecoding(id3b, file3b, { ...offline, setting: "auto", generationConfigFile: given }))
      .repetitionPenalty,
    1.05,
  );
});

test("a config placed by hand where the offline message says is read with no hub source, and nothing is fetched", async () => {
  const hub = await fakeHub(JSON.stringify({ repetition_penalty: 9 }), "e".repeat(40));
  try {
    const models = temporary();
    const repo = "Qwen/Qwen2.5-3B-Instruct";
    fs.mkdirSync(hubConfigDir(models, repo), { recursive: true });
    const placed = path.join(hubConfigDir(models, repo), "generation_config.json");
    fs.writeFileSync(placed, JSON.stringify(QWEN_LIKE));
    const said: string[] = [];
    const config = await hubGenerationConfig(models, { repo, revision: undefined, endpoint: hub.url }, (m) =>
      said.push(m),
    );
    assert.deepEqual(hub.requests, []);
    assert.equal(config.path, placed);
    assert.equal(config.hub, null);
    assert.equal(config.repetitionPenalty, 1.1);
    assert.match(said.join("\n"), /placed by hand/);
  } finally {
    await hub.close();
  }
});

test("Qwen2.5's other sizes (the scale suite) decode by their original repository's config too, at the hub's commit", async () => {
  const hub = await fakeHub(JSON.stringify(QWEN_LIKE), "e".repeat(40));
  const cacheDir = temporary();
  const id = "hf:Qwen/Qwen2.5-7B-Instruct-GGUF/qwen2.5-7b-instruct-fp16-00001-of-00004.gguf";
  try {
    const decoding = await resolveDecoding(id, path.join(cacheDir, "m.gguf"), {
      setting: "auto",
      cacheDir,
      hubEndpoint: hub.url,
    });
    assert.equal(decoding.repetitionPenalty, 1.1);
    assert.deepEqual(decoding.generationConfig?.hub, { repo: "Qwen/Qwen2.5-7B-Instruct", revision: "e".repeat(40) });
    assert.deepEqual(hub.requests, ["/Qwen/Qwen2.5-7B-Instruct/resolve/main/generation_config.json"]);
  } finally {
    await hub.close();
  }
  // Another publisher's model has no original repository here: a config beside its GGUF, or none.
  assert.equal(originalRepoOf("hf:ggml-org/gemma-3-4b-it-GGUF/gemma-3-4b-it-Q8_0.gguf"), undefined);
});

test("the hub is sent HF_TOKEN, else the token file at HF_TOKEN_PATH, as a Bearer header, never printed", async () => {
  const saved = { token: process.env.HF_TOKEN, path: process.env.HF_TOKEN_PATH };
  const restore = (name: "HF_TOKEN" | "HF_TOKEN_PATH", value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  try {
    const hub = await fakeHub(JSON.stringify(QWEN_LIKE), "c".repeat(40));
    const request = { repo: "Qwen/Qwen2.5-3B-Instruct", revision: undefined, endpoint: hub.url };
    process.env.HF_TOKEN = "hf_secret_env";
    await hubGenerationConfig(temporary(), request);
    delete process.env.HF_TOKEN;
    const tokenFile = path.join(temporary(), "token");
    fs.writeFileSync(tokenFile, "  hf_secret_file\n");
    process.env.HF_TOKEN_PATH = tokenFile;
    await hubGenerationConfig(temporary(), request);
    process.env.HF_TOKEN_PATH = path.join(temporary(), "no-token-here");
    await hubGenerationConfig(temporary(), request);
    await hub.close();
    assert.deepEqual(hub.authorizations, ["Bearer hf_secret_env", "Bearer hf_secret_file", undefined]);
    // A gated repository refused: the line names the URL and the status, not the token.
    const refusing = await fakeHub(`{"error": "Access to model is restricted"}`, "c".repeat(40), 401);
    process.env.HF_TOKEN = "hf_secret_env";
    await assert.rejects(
      hubGenerationConfig(temporary(), { ...request, endpoint: refusing.url }),
      (e: Error) =>
        e.message.startsWith(
          `cannot fetch ${refusing.url}/Qwen/Qwen2.5-3B-Instruct/resolve/main/generation_config.json: HTTP 401`,
        ) && !e.message.includes("hf_secret"),
    );
    await refusing.close();
  } finally {
    restore("HF_TOKEN", saved.token);
    restore("HF_TOKEN_PATH", saved.path);
  }
});
