import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { threadpoolSize } from "../../bin/threadpool.cjs";

test("one pool thread unless --parallel K runs K separate contexts", () => {
  assert.equal(threadpoolSize(["run", "--model", "m.gguf"]), 1);
  assert.equal(threadpoolSize(["run", "--parallel", "1"]), 1);
  assert.equal(threadpoolSize(["run", "--parallel", "8"]), 9);
  assert.equal(threadpoolSize(["run", "--parallel=4"]), 5);
  assert.equal(threadpoolSize(["run", "--parallel", "8", "--shared-context"]), 1);
  assert.equal(threadpoolSize(["run", "--shared-context=true", "--parallel", "8"]), 1);
  assert.equal(threadpoolSize(["run", "--parallel", "8", "--shared-context", "--no-shared-context"]), 9);
  assert.equal(threadpoolSize(["run", "--parallel", "8", "--shared-context=false"]), 9);
  assert.equal(threadpoolSize(["run", "--parallel", "2", "--parallel", "3"]), 4, "the last one counts");
  assert.equal(threadpoolSize(["run", "--parallel", "x"]), 1, "yargs refuses it; the pool stays small");
  assert.equal(threadpoolSize(["run", "--", "--parallel", "8"]), 1, "after -- nothing is a flag");
});

test("every way in that runs a model goes through the entry that sizes the pool", () => {
  const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as {
    bin: Record<string, string>;
    scripts: Record<string, string>;
  };
  assert.equal(pkg.bin.blogqa, "bin/blogqa.cjs");
  for (const name of ["blogqa", "experiment", "smoke"])
    assert.match(pkg.scripts[name]!, /^node bin\/blogqa\.cjs( |$)/, `npm run ${name}`);
  assert.match(pkg.scripts.bench!, /^node --require \.\/bin\/preload-threadpool\.cjs --import tsx /, "npm run bench");
});
