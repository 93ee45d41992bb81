// The Python model writer of the GPU check writes what make-tiny-model writes: the same shapes, tensors and metadata.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { SHAPES } from "../../src/test-models/gguf/qwen2-shapes.ts";
import { llamaCppBundlePath } from "../../src/test-models/gguf/qwen25-template.ts";
import { repoRoot } from "../helpers/run-cli.ts";
import { tempFolders } from "../helpers/temp-folders.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";

const temp = tempFolders("blogqa-make-model");
const writer = path.join(repoRoot, "scripts/gpu-check/make_model.py");

/** Why the writer cannot run here (no python3, or no numpy), or undefined; BLOGQA_REQUIRE_GPU_CHECK=1 makes it fail. */
function pythonMissing(): string | undefined {
  const probe = spawnSync("python3", ["-c", "import numpy"], { encoding: "utf8" });
  if (probe.status === 0) return undefined;
  const why = "python3 with numpy is not installed: the GPU check's model writer needs it";
  if (process.env.BLOGQA_REQUIRE_GPU_CHECK === "1") throw new Error(`BLOGQA_REQUIRE_GPU_CHECK=1 but ${why}`);
  return why;
}
const skip = pythonMissing();

test("the writer knows the shapes make-tiny-model knows", { skip }, () => {
  const listed = JSON.parse(execFileSync("python3", [writer, "--list-shapes"], { encoding: "utf8" }));
  assert.deepEqual(listed, SHAPES);
});

test("the tiny shape has make-tiny-model's tensors and metadata, and the same bytes each time", { skip }, async () => {
  const dir = temp("out");
  execFileSync("git", ["-c", "advice.detachedHead=false", "clone", "-q", llamaCppBundlePath(), path.join(dir, "src")]);
  const write = (name: string) => {
    const out = path.join(dir, name);
    execFileSync("python3", [writer, "--source", path.join(dir, "src"), "--shape", "tiny", "--out", out]);
    return out;
  };
  const [first, second] = [write("a.gguf"), write("b.gguf")];
  assert.ok(fs.readFileSync(first).equals(fs.readFileSync(second)));

  const ours = await readGgufFileInfo(first, { logWarnings: false });
  const theirs = await readGgufFileInfo(await tinyModelPath(), { logWarnings: false });
  const tensors = (info: typeof ours) => info.tensorInfo!.map((t) => [t.name, t.dimensions.map(Number), t.ggmlType]);
  assert.deepEqual(tensors(ours), tensors(theirs));
  // Only the description (which writer) and the TypeScript writer's version differ.
  const { general: g1, blogqa: b1, ...rest1 } = ours.metadata as unknown as Record<string, Record<string, unknown>>;
  const { general: g2, blogqa: b2, ...rest2 } = theirs.metadata as unknown as Record<string, Record<string, unknown>>;
  assert.deepEqual(rest1, rest2);
  assert.deepEqual({ ...g1, description: "" }, { ...g2, description: "" });
  const { generator: _, ...tiny2 } = b2!.tiny_model as Record<string, unknown>;
  assert.deepEqual(b1!.tiny_model, tiny2);
});
