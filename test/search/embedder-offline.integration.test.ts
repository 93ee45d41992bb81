// Where models come from: local folders, a hub mirror on localhost, and the offline failure that names the ways out.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { UserError } from "../../src/common/errors.ts";
import { loadEmbedder } from "../../src/search/embedder.ts";
import { probeHub } from "../../src/search/embedder-source.ts";
import { tinyEmbedderPath } from "../helpers/tiny-embedder.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const temporary = tempFolders("blogqa-emb");

/** A hub mirror on localhost serving the tiny model as `test/tiny`, logging every request. */
async function startMirror(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const match = /^\/test\/tiny\/resolve\/main\/(.+)$/.exec(req.url ?? "");
    const file = match ? path.join(tinyEmbedderPath(), match[1]!) : "";
    if (!match || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const bytes = fs.readFileSync(file);
    res.writeHead(200, { "content-length": bytes.length });
    res.end(req.method === "HEAD" ? undefined : bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets from transformers.js's range requests would hold close() for seconds
      }),
  };
}

/** A localhost URL where nothing listens: connections are refused at once. */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

function assertNamesEscapeHatches(error: unknown): true {
  assert.ok(error instanceof UserError, `a UserError, not ${String(error)}`);
  assert.match(error.message, /--retriever bm25/);
  assert.match(error.message, /--embedding-model PATH/);
  return true;
}

test("offline, a hub model that is not cached fails at once, naming --retriever bm25 and --embedding-model PATH", async () => {
  const cacheDir = temporary("offline");
  await assert.rejects(
    loadEmbedder("test/tiny", { dtype: "fp32", cacheDir, remoteHost: await closedPort() }),
    (error) => {
      assertNamesEscapeHatches(error);
      assert.match((error as Error).message, /test\/tiny/);
      assert.match((error as Error).message, /cannot be reached/);
      return true;
    },
  );
});

test("a hub that never answers is given up on after the probe's timeout", async () => {
  const sockets = new Set<import("node:net").Socket>();
  const silent = http.createServer(() => {}); // accepts, never responds
  silent.on("connection", (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as AddressInfo;
  const result = await probeHub(`http://127.0.0.1:${port}/x/y/resolve/main/config.json`, 200);
  for (const socket of sockets) socket.destroy();
  silent.close();
  assert.equal(result.ok, false);
  assert.match(result.ok ? "" : result.reason, /no answer .* within 0.2 s/);
});

test("a hub model downloads into <cacheDir>/embedders with progress, then loads from the cache with the hub gone", async () => {
  const cacheDir = temporary("download");
  const mirror = await startMirror();
  const messages: string[] = [];
  let first: Float32Array | undefined;
  try {
    const online = await loadEmbedder("test/tiny", {
      dtype: "fp32",
      cacheDir,
      remoteHost: mirror.url,
      onProgress: (m) => messages.push(m),
    });
    assert.equal(online.info.model, "test/tiny");
    [first] = await online.embed(["cached models load offline"]);
  } finally {
    await mirror.close();
  }
  for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"]) {
    assert.deepEqual(
      fs.readFileSync(path.join(cacheDir, "embedders/test/tiny", file)),
      fs.readFileSync(path.join(tinyEmbedderPath(), file)),
      file,
    );
  }
  assert.match(messages[0] ?? "", /downloading embedding model test\/tiny/);
  assert.ok(
    messages.some((m) => /onnx\/model\.onnx: 100%/.test(m)),
    messages.join("\n"),
  );

  const offline = await loadEmbedder("test/tiny", {
    dtype: "fp32",
    cacheDir,
    remoteHost: await closedPort(),
    onProgress: (m) => messages.push(`again: ${m}`),
  });
  assert.deepEqual((await offline.embed(["cached models load offline"]))[0], first);
  assert.ok(!messages.some((m) => m.startsWith("again")), "nothing downloaded the second time");
});

test("a model the hub does not have is reported as such, with the ways out", async () => {
  const mirror = await startMirror();
  try {
    await assert.rejects(
      loadEmbedder("test/missing", { dtype: "fp32", cacheDir: temporary("missing"), remoteHost: mirror.url }),
      (error) => {
        assertNamesEscapeHatches(error);
        assert.match((error as Error).message, /no model "test\/missing"/);
        return true;
      },
    );
  } finally {
    await mirror.close();
  }
});

test("local folders: a missing folder, a folder without a model, a dtype whose file is absent and a corrupt model are UserErrors", async () => {
  const cacheDir = temporary("local");
  await assert.rejects(loadEmbedder("./no/such/folder", { dtype: "fp32", cacheDir }), /no such folder/);
  const empty = temporary("empty-model");
  await assert.rejects(loadEmbedder(empty, { dtype: "fp32", cacheDir }), (error) => {
    assertNamesEscapeHatches(error);
    assert.match((error as Error).message, /config\.json is missing/);
    return true;
  });
  await assert.rejects(
    loadEmbedder(tinyEmbedderPath(), { dtype: "fp16", cacheDir }),
    /onnx\/model_fp16\.onnx is missing/,
  );
  const corrupt = temporary("corrupt-model");
  fs.cpSync(tinyEmbedderPath(), corrupt, { recursive: true });
  fs.writeFileSync(path.join(corrupt, "onnx/model.onnx"), "not an onnx model");
  await assert.rejects(loadEmbedder(corrupt, { dtype: "fp32", cacheDir }), (error) => {
    assert.ok(error instanceof UserError);
    assert.match(error.message, /cannot load embedding model .*onnx\/model\.onnx/);
    return true;
  });
});
