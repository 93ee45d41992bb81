// The built-in suites: every model has a size, a cited hub URI and a known tool-call format; `study` is experiment's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_MODEL_NAMES, hfLocalFileNames, modelIdFor, originalRepoOf, QUANTS } from "../../src/llm/index.ts";
import { SUITES, suiteModels } from "../../src/runs/index.ts";
import { TOOL_FORMATS } from "../../src/toolcalls/index.ts";
import { repoRoot } from "../helpers/run-cli.ts";

const source = readFileSync(path.join(repoRoot, "src/runs/suites.ts"), "utf8");

test("every suite model has an id, a size, an hf: URI to one .gguf file, a known format and a cited page", () => {
  for (const suite of SUITES) {
    const models = suite.models("f16");
    assert.ok(models.length >= 2, `${suite.name}: a suite is several models`);
    assert.equal(new Set(models.map((m) => m.id)).size, models.length, `${suite.name}: ids are unique`);
    assert.equal(new Set(models.map((m) => m.model)).size, models.length, `${suite.name}: models are unique`);
    for (const m of models) {
      const where = `${suite.name}/${m.id}`;
      assert.ok(Number.isFinite(m.paramsB) && m.paramsB > 0, `${where}: params_b`);
      assert.ok(hfLocalFileNames(m.model) !== undefined, `${where}: ${m.model} is an hf:owner/repo/file.gguf URI`);
      assert.ok((TOOL_FORMATS as readonly string[]).includes(m.format), `${where}: format ${m.format}`);
      if (m.toolFormat !== undefined) assert.equal(m.toolFormat, m.format, `${where}: the format it forces`);
      assert.match(m.found, /^https:\/\/huggingface\.co\//, `${where}: the page it was found on`);
      assert.ok(m.weights.length > 0, `${where}: what its weights are`);
    }
  }
});

test("every hub URI in the suites is cited in a comment beside it, or comes from the study's own models", () => {
  for (const suite of SUITES) {
    for (const m of suite.models("f16")) {
      if (DEFAULT_MODEL_NAMES.some((n) => modelIdFor(n) === m.model)) continue;
      const at = source.indexOf(JSON.stringify(m.model));
      assert.ok(at > 0, `${m.model} is written out in suites.ts`);
      // The comment lines just above the entry name the page where the repository was found.
      const before = source.slice(source.lastIndexOf("{", at), at);
      assert.match(before, /\/\/ .*(https:\/\/huggingface\.co\/\S+)/, `${m.id}: a comment with the page's URL`);
    }
  }
});

test("the study suite is exactly what experiment runs, for every --quant", () => {
  for (const quant of QUANTS) {
    assert.deepEqual(
      suiteModels("study", quant).map((m) => m.model),
      DEFAULT_MODEL_NAMES.map((n) => modelIdFor(n, quant)),
    );
  }
});

test("qwen2.5-scale: five Qwen2.5-Instruct sizes from Qwen's own repositories, in order, quantized only past 24 GB", () => {
  const models = suiteModels("qwen2.5-scale", "f16");
  assert.deepEqual(
    models.map((m) => m.id),
    ["qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-14b"],
  );
  for (const m of models) assert.match(m.model, /^hf:Qwen\/Qwen2\.5-[\d.]+B-Instruct-GGUF\//);
  assert.deepEqual(
    models.map((m) => m.paramsB),
    [...models.map((m) => m.paramsB)].sort((a, b) => a - b),
  );
  const quantized = models.filter((m) => !/fp16/.test(m.model));
  assert.deepEqual(
    quantized.map((m) => m.id),
    ["qwen2.5-14b"],
  );
  assert.match(quantized[0]!.weights, /would not fit a 24 GB GPU/);
  // Every size decodes by its own generation_config.json, as the study's two do: the same rule across the scale.
  for (const m of models) assert.match(originalRepoOf(m.model)?.repo ?? "", /^Qwen\/Qwen2\.5-[\d.]+B-Instruct$/, m.id);
});

test("families: one model per tool-call format except the Nemo-era mistral one, each 3-4B", () => {
  const models = suiteModels("families", "f16");
  assert.deepEqual(models.map((m) => m.format).sort(), TOOL_FORMATS.filter((f) => f !== "mistral").sort());
  for (const m of models) assert.ok(m.paramsB >= 3 && m.paramsB <= 4.5, `${m.id}: ${m.paramsB}B`);
});

test("an unknown suite is one line naming the suites there are", () => {
  assert.throws(() => suiteModels("qwen3-scale", "f16"), {
    message: '--suite: no suite "qwen3-scale"; the suites are study, qwen2.5-scale, families',
  });
});
