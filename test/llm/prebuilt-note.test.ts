// The note that a CPU run on node-llama-cpp's prebuilt binary could run faster after npm run build:cpu.
import { test } from "node:test";
import assert from "node:assert/strict";
import { prebuiltCpuNote } from "../../src/llm/load-model.ts";

const binary = (buildType: "prebuilt" | "localBuild") => ({ buildType, cmakeOptions: {} });

test("only a CPU run on the prebuilt binary is told about npm run build:cpu", () => {
  assert.match(prebuiltCpuNote({ backend: "cpu", binary: binary("prebuilt") }) ?? "", /`npm run build:cpu`/);
  assert.equal(prebuiltCpuNote({ backend: "cpu", binary: binary("localBuild") }), undefined);
  assert.equal(prebuiltCpuNote({ backend: "cuda", binary: binary("prebuilt") }), undefined);
  // A server's model records no in-process binary.
  assert.equal(prebuiltCpuNote({ backend: "server" }), undefined);
});
