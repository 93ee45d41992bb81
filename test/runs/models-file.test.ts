// The --models file: a JSON list of {id, model, params_b, tool_format?}, every problem one line naming the entry and field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readModelsFile } from "../../src/runs/index.ts";
import { UserError } from "../../src/common/errors.ts";
import { TOOL_FORMATS } from "../../src/toolcalls/index.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-models-file-"));

function write(content: unknown, name = "models.json"): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

/** The one line a bad file gets. */
function problem(content: unknown): string {
  const file = write(content);
  try {
    readModelsFile(file);
  } catch (error) {
    assert.ok(error instanceof UserError, `a UserError, not ${String(error)}`);
    assert.ok(!error.message.includes("\n"), "one line");
    return error.message.replace(file, "FILE");
  }
  assert.fail("expected the file to be refused");
}

test("a good file gives one entry per model: local paths resolved from the file's folder, URIs kept", () => {
  const file = write([
    { id: "small", model: "tiny.gguf", params_b: 0.5 },
    { id: "big", model: "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-q8_0.gguf", params_b: 3.09 },
    { id: "llama", model: "/abs/llama.gguf", params_b: 3.2, tool_format: "llama3" },
  ]);
  assert.deepEqual(readModelsFile(file), [
    { id: "small", model: path.join(dir, "tiny.gguf"), paramsB: 0.5 },
    { id: "big", model: "hf:Qwen/Qwen2.5-3B-Instruct-GGUF/qwen2.5-3b-instruct-q8_0.gguf", paramsB: 3.09 },
    { id: "llama", model: "/abs/llama.gguf", paramsB: 3.2, toolFormat: "llama3" },
  ]);
});

test("with a server, model is the server's own id and is never taken for a path", () => {
  const file = write([{ id: "q", model: "qwen2.5-7b-instruct", params_b: 7.6 }]);
  assert.equal(readModelsFile(file, { served: true })[0]!.model, "qwen2.5-7b-instruct");
});

test("every kind of bad file is one line naming the file, the entry and the field", () => {
  const cases: [unknown, string][] = [
    ["[{", "FILE: not valid JSON ("],
    [
      { id: "x" },
      "FILE: expected a JSON list of {id, model, params_b, tool_format?}, with at least one model; got an object",
    ],
    [[], "FILE: expected a JSON list of {id, model, params_b, tool_format?}, with at least one model; got a list"],
    [["x.gguf"], 'FILE: entry 1: expected an object {id, model, params_b, tool_format?}, got "x.gguf" (a string)'],
    [[{ model: "a.gguf", params_b: 1 }], "FILE: entry 1: field id: missing"],
    [[{ id: "a", params_b: 1 }], "FILE: entry 1: field model: missing"],
    [
      [{ id: "a", model: "", params_b: 1 }],
      'FILE: entry 1: field model: expected a non-empty string, got "" (a string)',
    ],
    [
      [{ id: 3, model: "a.gguf", params_b: 1 }],
      "FILE: entry 1: field id: expected a non-empty string, got 3 (a number)",
    ],
    [[{ id: "a", model: "a.gguf" }], 'FILE: entry 1 ("a"): field params_b: missing'],
    [
      [{ id: "a", model: "a.gguf", params_b: "3B" }],
      'FILE: entry 1 ("a"): field params_b: expected the model\'s size in billions of parameters (a number above 0), got "3B" (a string)',
    ],
    [
      [{ id: "a", model: "a.gguf", params_b: 0 }],
      'FILE: entry 1 ("a"): field params_b: expected the model\'s size in billions of parameters (a number above 0), got 0 (a number)',
    ],
    [
      [{ id: "a", model: "a.gguf", params_b: 1, tool_format: "json" }],
      `FILE: entry 1 ("a"): field tool_format: expected one of auto, ${TOOL_FORMATS.join(", ")} or null, got "json" (a string)`,
    ],
    [
      [{ id: "a", model: "a.gguf", params_b: 1, tool_format: null }],
      'FILE: entry 1 ("a"): field tool_format: expected a format, got null',
    ],
    [
      [{ id: "a", model: "a.gguf", params_b: 1, param_b: 2 }],
      'FILE: entry 1: unknown field "param_b"; an entry\'s fields are id, model, params_b, tool_format',
    ],
    [
      [
        { id: "a", model: "a.gguf", params_b: 1 },
        { id: "a", model: "b.gguf", params_b: 2 },
      ],
      'FILE: entry 2: field id: "a" is entry 1\'s too; each model runs once',
    ],
  ];
  for (const [content, expected] of cases) {
    const line = problem(content);
    assert.ok(line.startsWith(expected), `${JSON.stringify(content)}:\n  got      ${line}\n  expected ${expected}`);
  }
});

test("the same model listed twice under two ids is refused: its runs would share one log key", () => {
  const line = problem([
    { id: "a", model: "same.gguf", params_b: 1 },
    { id: "b", model: "same.gguf", params_b: 1 },
  ]);
  assert.match(line, /^FILE: entry 2: field model: ".*same\.gguf" is entry 1's too/);
});

test("a missing file is a file system error naming it, which the command line prints as one line", () => {
  assert.throws(() => readModelsFile(path.join(dir, "absent.json")), { code: "ENOENT" });
});
